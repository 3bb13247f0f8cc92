import ArgumentParser
import Dynamics

/// `dynbench physics`: Box2D's classic pyramid and rain scenes at 100 pt per metre, timed per step.
/// Prints one JSON line: engine, scene, size, bodies, steps, per-step median and mean (ms, over the steps after
/// the first 10), whether the animator paused (`settled`), the top body's height above the ground and the
/// largest distance any body ended from its start (both in metres).
struct PhysicsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "physics", abstract: "Time the physics engine on Box2D's pyramid and rain scenes.")

    enum Scene: String, ExpressibleByArgument, CaseIterable {
        case pyramid
        case rain
    }

    @Option(help: "pyramid or rain") var scene: Scene = .pyramid
    @Option(help: "pyramid: rows; rain: bodies") var size: Int = 40
    @Option(help: "steps to simulate") var steps: Int = 600
    @Flag(help: "keep every body awake (as Box2D's benchmarks do), so every step does full work")
    var noSleep = false

    static let pointsPerMetre = 100.0
    static let warmupSteps = 10

    func validate() throws {
        guard size > 0 else { throw ValidationError("--size must be > 0") }
        guard steps > Self.warmupSteps else { throw ValidationError("--steps must be > \(Self.warmupSteps)") }
    }

    func run() throws {
        let animator = DynamicAnimator(width: 100_000, height: 100_000, stepHz: 60)
        animator.sleepingEnabled = !noSleep
        _ = animator.add(GravityBehavior())
        _ = animator.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: false))
        let bodies = switch scene {
        case .pyramid: try Self.buildPyramid(animator, rows: size)
        case .rain: try Self.buildRain(animator, count: size)
        }
        var starts: [Vec2] = []
        for id in bodies { starts.append(animator.item(id)!.center) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(steps)
        for _ in 0..<steps {
            let t0 = clock.now
            animator.step()
            let d = clock.now - t0
            samples.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
        }
        let timed = Array(samples.dropFirst(Self.warmupSteps)).sorted()
        let median = timed.count % 2 == 1 ? timed[timed.count / 2]
            : 0.5 * (timed[timed.count / 2 - 1] + timed[timed.count / 2])
        let mean = timed.reduce(0, +) / Double(timed.count)
        var top = -Double.infinity, maxDisp = 0.0
        for (k, id) in bodies.enumerated() {
            let c = animator.item(id)!.center
            top = max(top, -c.y / Self.pointsPerMetre)
            maxDisp = max(maxDisp, (c - starts[k]).length / Self.pointsPerMetre)
        }
        print("{\"engine\":\"dyn\",\"scene\":\"\(scene.rawValue)\",\"size\":\(size),\"bodies\":\(bodies.count),"
            + "\"steps\":\(steps),\"ms_per_step_median\":\(Self.fixed(median)),\"ms_per_step_mean\":\(Self.fixed(mean)),"
            + "\"settled\":\(!animator.isRunning),\"top_y_end\":\(Self.fixed(top)),\"max_disp_end\":\(Self.fixed(maxDisp))}")
    }

    static func fixed(_ v: Double) -> String { String((v * 10_000).rounded() / 10_000) }

    static let material = ItemProperties(elasticity: 0, friction: 0.6, density: 1)

    /// A static ground whose top is y = 0 and `rows` rows of 1 m boxes, row i holding rows − i boxes.
    static func buildPyramid(_ a: DynamicAnimator, rows: Int) throws -> [ItemID] {
        let m = pointsPerMetre
        let groundWidth = Double(rows) * m + 40 * m
        var ground = material
        ground.anchored = true
        _ = try a.addItem(width: groundWidth, height: m, center: Vec2(0, 0.5 * m), properties: ground)
        var ids: [ItemID] = []
        for i in 0..<rows {
            let count = rows - i
            for j in 0..<count {
                let x = (Double(j) - 0.5 * Double(count - 1)) * m
                ids.append(try a.addItem(width: m, height: m, center: Vec2(x, -(Double(i) + 0.5) * m),
                                         properties: material))
            }
        }
        return ids
    }

    /// A container of inner width 20 m and `count` bodies dropped from an 18-column grid: pitch 1.05 m, rows
    /// 1.2 m apart from 10 m up, alternate rows shifted ±0.25 m; boxes where row+col is even, else circles.
    static func buildRain(_ a: DynamicAnimator, count: Int) throws -> [ItemID] {
        let m = pointsPerMetre
        let columns = 18
        let rowsNeeded = (count + columns - 1) / columns
        let wallHeight = (10 + 1.2 * Double(rowsNeeded) + 10) * m
        var solid = material
        solid.anchored = true
        _ = try a.addItem(width: 22 * m, height: m, center: Vec2(0, 0.5 * m), properties: solid)
        _ = try a.addItem(width: m, height: wallHeight, center: Vec2(-10.5 * m, -0.5 * wallHeight), properties: solid)
        _ = try a.addItem(width: m, height: wallHeight, center: Vec2(10.5 * m, -0.5 * wallHeight), properties: solid)
        var ids: [ItemID] = []
        for k in 0..<count {
            let row = k / columns, col = k % columns
            let shift = row % 2 == 0 ? 0.25 : -0.25
            let x = ((Double(col) - 0.5 * Double(columns - 1)) * 1.05 + shift) * m
            let y = -(10 + 1.2 * Double(row)) * m
            let shape: ItemShape = (row + col) % 2 == 0 ? .rect : .ellipse
            ids.append(try a.addItem(shape: shape, width: m, height: m, center: Vec2(x, y), properties: material))
        }
        return ids
    }
}
