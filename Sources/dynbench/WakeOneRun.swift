import Dynamics

/// `dynbench physics --wake-one`: the cost of a mostly sleeping world. The scene first runs with sleeping on
/// until the animator pauses (every item asleep) or `settleCap` steps pass; then a small continuous push
/// (0.05 N sideways, far below what it takes to slide a 1 kg box with friction 0.6) is put on the highest
/// item, which keeps it awake, and `steps` steps are timed.
///
/// The pushed item keeps its whole island awake (everything it touches, transitively: the whole pyramid),
/// as island sleeping does in Box2D too. `apart` instead adds a lone 1 m box on its own 4 m ledge 1 km to the
/// right of the scene before settling and pushes that one: the cost of a world that is asleep but for one body.
struct WakeOneRun {
    /// Push magnitude (UIKit units: 1 = 1 N on a 1 m box of density 1, accelerating it at 1 m/s²).
    static let pushMagnitude = 0.05

    let scene: any BenchScene.Type
    let size: Int
    let steps: Int
    let settleCap: Int
    var clock: StepClock = .wall
    var apart = false

    struct Result {
        var run: PhysicsRun.Result
        /// Steps taken before the timed ones.
        var settleSteps: Int
        /// Whether the scene paused (all asleep) before the cap.
        var settledBeforePush: Bool
        var pushed: ItemID
    }

    func run() throws -> Result {
        let animator = PhysicsRun.makeAnimator(sleeping: true)
        let built = try scene.build(animator, size: size)
        var lone: ItemID?
        if apart {
            _ = try animator.addItem(width: BenchUnits.length(4), height: BenchUnits.length(1),
                                     center: BenchUnits.point(1000, -0.5), properties: BenchUnits.staticMaterial)
            lone = try animator.addItem(width: BenchUnits.length(1), height: BenchUnits.length(1),
                                        center: BenchUnits.point(1000, 0.5), properties: BenchUnits.material)
        }
        let starts = built.bodies.map { animator.item($0)!.center }
        var settleSteps = 0
        while animator.isRunning && settleSteps < settleCap {
            try built.beforeStep(animator)
            animator.step()
            settleSteps += 1
        }
        let settled = !animator.isRunning
        guard let top = lone ?? Self.highest(animator, built.bodies) else {
            throw WakeOneError.noItems
        }
        var push = PushBehavior(items: [top], mode: .continuous)
        push.magnitude = Self.pushMagnitude
        _ = try animator.add(push)
        let samples = try PhysicsRun.time(animator, steps: steps, clock: clock, beforeStep: built.beforeStep)
        let end = PhysicsRun.endState(animator, bodies: built.bodies, starts: starts, samples: samples)
        return Result(run: end, settleSteps: settleSteps, settledBeforePush: settled, pushed: top)
    }

    /// The item whose centre is highest (smallest y; the first of equals).
    static func highest(_ animator: DynamicAnimator, _ ids: [ItemID]) -> ItemID? {
        var best: ItemID?
        var bestY = Double.infinity
        for id in ids {
            if let c = animator.item(id)?.center, c.y < bestY {
                bestY = c.y
                best = id
            }
        }
        return best
    }
}

enum WakeOneError: Error, CustomStringConvertible {
    case noItems
    var description: String { "the scene has no dynamic item to keep awake" }
}
