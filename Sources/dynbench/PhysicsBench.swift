import ArgumentParser
import Dynamics
import Foundation

/// `dynbench physics`: the engine timed per step on dyn's pyramid and rain scenes and on Box2D v3's benchmark
/// scenes (docs/ARCHITECTURE.md, "Benchmark scenes"), at 100 pt per metre. Prints one JSON line per run:
/// engine, scene, size, bodies, steps, per-step median and mean (ms, over the steps after the first 10),
/// whether the animator paused (`settled`), the top body's height above the ground and the largest distance
/// any body ended from its start (both in metres). `--wake-one` and `--compare-box2d3` add their own lines.
struct PhysicsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "physics",
        abstract: "Time the physics engine on the pyramid and rain scenes and Box2D v3's benchmark scenes.")

    @Option(help: "one of: \(BenchSceneCatalog.names.joined(separator: ", "))") var scene = PyramidScene.name
    @Option(help: "the scene's size (pyramid/large_pyramid: rows; rain/spinner: bodies; many_pyramids: pyramids per side; joint_grid/tumbler: per side; smash: columns); default: Box2D's")
    var size: Int?
    @Option(help: "steps to simulate (timed)") var steps: Int = 600
    @Flag(help: "keep every body awake (as Box2D's benchmarks do), so every step does full work")
    var noSleep = false
    @Flag(help: "let the scene settle (sleeping on) first, then keep one top item awake with a small push and time that")
    var wakeOne = false
    @Option(help: "--wake-one: most steps to wait for the scene to fall asleep") var settleSteps: Int = 3000
    @Flag(help: "--wake-one: push a lone box added 1 km away (not touching the scene) instead of the top item")
    var apart = false
    @Option(help: "also run this Box2D v3 harness (bench3) on the same scene, interleaved, and print the ratio")
    var compareBox2d3: String?
    @Option(help: "--compare-box2d3: alternate this many dyn runs and harness runs") var rounds: Int = 3
    @Option(help: "wall (elapsed time, as the Box2D harness) or cpu (the stepping thread's CPU time: steadier on a busy machine)")
    var clock: StepClock = .wall
    @Flag(help: "also charge each step's time to its stages (StepStage) and print their means and shares")
    var stages = false
    @Option(help: "step the world on this many worker threads, the stepping thread included (1: one thread)")
    var workers: Int = 1

    var sceneType: any BenchScene.Type { BenchSceneCatalog.scene(named: scene)! }
    var resolvedSize: Int { size ?? sceneType.defaultSize }

    func validate() throws {
        guard BenchSceneCatalog.scene(named: scene) != nil else {
            throw ValidationError("--scene must be one of: \(BenchSceneCatalog.names.joined(separator: ", "))")
        }
        if let size { guard size > 0 else { throw ValidationError("--size must be > 0") } }
        guard steps > PhysicsRun.warmupSteps else { throw ValidationError("--steps must be > \(PhysicsRun.warmupSteps)") }
        guard !(wakeOne && noSleep) else { throw ValidationError("--wake-one needs sleeping: drop --no-sleep") }
        guard !apart || wakeOne else { throw ValidationError("--apart goes with --wake-one") }
        guard settleSteps >= 0 else { throw ValidationError("--settle-steps must be >= 0") }
        guard rounds > 0 else { throw ValidationError("--rounds must be > 0") }
        guard (1...64).contains(workers) else { throw ValidationError("--workers must be 1...64") }
        guard !stages || (compareBox2d3 == nil && !wakeOne) else {
            throw ValidationError("--stages times a plain run: drop --compare-box2d3 and --wake-one")
        }
        if let path = compareBox2d3 {
            guard clock == .wall else { throw ValidationError("--compare-box2d3 times both on the wall clock: drop --clock cpu") }
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw ValidationError("--compare-box2d3: \(path) is not an executable file")
            }
        }
    }

    func run() throws {
        if let path = compareBox2d3 {
            try compare(with: Box2DHarness(path: path))
        } else if wakeOne {
            print(try wakeOneLine(WakeOneRun(scene: sceneType, size: resolvedSize, steps: steps,
                                             settleCap: settleSteps, clock: clock, apart: apart).run()))
        } else if stages {
            var run = physicsRun
            let times = StageTimes(clock: clock)
            run.stages = times
            let result = try run.run()
            print(line(result, extra: "," + times.json))
        } else {
            print(line(try physicsRun.run()))
        }
    }

    var physicsRun: PhysicsRun {
        PhysicsRun(scene: sceneType, size: resolvedSize, steps: steps, sleeping: !noSleep, clock: clock,
                   workers: workers > 1 ? StepWorkers(threads: workers) : nil)
    }

    func line(_ r: PhysicsRun.Result, extra: String = "") -> String {
        "{\"engine\":\"dyn\",\"scene\":\"\(scene)\",\"size\":\(resolvedSize),\"bodies\":\(r.bodies),"
            + "\"steps\":\(steps),\"ms_per_step_median\":\(Stats.fixed(r.median)),"
            + "\"ms_per_step_mean\":\(Stats.fixed(r.mean)),\"settled\":\(r.settled),"
            + "\"top_y_end\":\(Stats.fixed(r.topY)),\"max_disp_end\":\(Stats.fixed(r.maxDisplacement))"
            + ",\"workers\":\(workers),\"hash\":\"\(hex(r.hash))\""
            + (clock == .cpu ? ",\"clock\":\"cpu\"" : "") + "\(extra)}"
    }

    func wakeOneLine(_ w: WakeOneRun.Result) -> String {
        line(w.run, extra: ",\"mode\":\"wake_one\",\"settle_steps\":\(w.settleSteps),"
            + "\"settled_before_push\":\(w.settledBeforePush),\"pushed_item\":\(w.pushed),\"apart\":\(apart),\"moving_end\":\(w.run.moving)")
    }
}

/// A state hash as 16 hex digits (as the protocol's `hash` reply writes it).
private func hex(_ h: UInt64) -> String {
    let digits = String(h, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
