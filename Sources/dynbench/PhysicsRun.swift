import Dynamics

/// One timed run of a scene: builds it in a fresh animator, steps it, and keeps the per-step times and the
/// end state. Only `step()` is timed (motors and pushes run outside the clock).
struct PhysicsRun {
    static let warmupSteps = 10

    let scene: any BenchScene.Type
    let size: Int
    let steps: Int
    let sleeping: Bool
    var clock: StepClock = .wall
    /// `--stages`: charge each step's time to its stages here.
    var stages: StageTimes?
    /// `--workers N`: the worker threads the world's step uses (nil: one thread).
    var workers: StepWorkers?

    struct Result {
        var bodies: Int
        /// Milliseconds per step, every step in order.
        var samples: [Double]
        /// The animator paused (every item at rest).
        var settled: Bool
        /// Height of the highest dynamic item's centre above y = 0, metres (y up).
        var topY: Double
        /// Largest distance any dynamic item ended from its start, metres.
        var maxDisplacement: Double
        /// Dynamic items whose velocity is not exactly zero at the end (a sleeping item's is).
        var moving: Int
        /// The final world's state hash (`DynamicAnimator.stateHash()`): the same for any number of workers.
        var hash: UInt64 = 0
        /// CPU time of building the scene and every step, seconds (what `--compare-box2d3` sets against the
        /// harness process's CPU time).
        var cpuSeconds = 0.0

        var timed: [Double] { Array(samples.dropFirst(samples.count > PhysicsRun.warmupSteps ? PhysicsRun.warmupSteps : 0)) }
        var median: Double { Stats.median(timed) }
        var mean: Double { timed.reduce(0, +) / Double(max(timed.count, 1)) }
    }

    /// A fresh animator as every scene starts from: a huge reference rectangle (no bounds), 60 Hz.
    static func makeAnimator(sleeping: Bool) -> DynamicAnimator {
        let animator = DynamicAnimator(width: 100_000, height: 100_000, stepHz: 60)
        animator.sleepingEnabled = sleeping
        return animator
    }

    func run() throws -> Result {
        let cpuStart = StepClock.cpu.nowMs()
        let animator = Self.makeAnimator(sleeping: sleeping)
        animator.workers = workers
        let built = try scene.build(animator, size: size)
        let starts = built.bodies.map { animator.item($0)!.center }
        let samples = try Self.time(animator, steps: steps, clock: clock, stages: stages, beforeStep: built.beforeStep)
        var result = Self.endState(animator, bodies: built.bodies, starts: starts, samples: samples)
        result.hash = animator.stateHash()
        result.cpuSeconds = (StepClock.cpu.nowMs() - cpuStart) * 1e-3
        return result
    }

    /// Steps `animator` `steps` times, timing each `step()` alone on `clock`.
    /// With `stages`, also charges each step's time to its stages (the warm-up steps excepted).
    static func time(_ animator: DynamicAnimator, steps: Int, clock: StepClock, stages: StageTimes? = nil,
                     beforeStep: (DynamicAnimator) throws -> Void) throws -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(steps)
        stages?.attach(to: animator)
        defer { animator.onStepStage = nil }
        for k in 0..<steps {
            try beforeStep(animator)
            stages?.recording = k >= warmupSteps
            let t0 = clock.nowMs()
            animator.step()
            stages?.stepEnded()
            samples.append(clock.nowMs() - t0)
        }
        return samples
    }

    static func endState(_ animator: DynamicAnimator, bodies: [ItemID], starts: [Vec2], samples: [Double]) -> Result {
        var top = -Double.infinity, maxDisp = 0.0, moving = 0
        for (k, id) in bodies.enumerated() {
            guard let item = animator.item(id) else { continue }
            top = max(top, -item.center.y / BenchUnits.pointsPerMetre)
            maxDisp = max(maxDisp, (item.center - starts[k]).length / BenchUnits.pointsPerMetre)
            if item.velocity != .zero || item.angularVelocity != 0 { moving += 1 }
        }
        return Result(bodies: bodies.count, samples: samples, settled: !animator.isRunning, topY: top,
                      maxDisplacement: maxDisp, moving: moving)
    }
}

/// Small statistics over timings.
enum Stats {
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
    }

    /// `v` rounded to 4 decimals, as JSON.
    static func fixed(_ v: Double) -> String { v.isFinite ? String((v * 10_000).rounded() / 10_000) : "null" }
}
