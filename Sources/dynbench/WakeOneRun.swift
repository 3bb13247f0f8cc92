import Dynamics

/// `dynbench physics --wake-one`: the cost of a mostly sleeping world. The scene first runs with sleeping on
/// until the animator pauses (every item asleep) or `settleCap` steps pass; then a small continuous push
/// (0.05 N sideways, far below what it takes to slide a 1 kg box with friction 0.6) is put on the highest
/// item, which keeps it awake, and `steps` steps are timed.
struct WakeOneRun {
    /// Push magnitude (UIKit units: 1 = 1 N on a 1 m box of density 1, accelerating it at 1 m/s²).
    static let pushMagnitude = 0.05

    let scene: any BenchScene.Type
    let size: Int
    let steps: Int
    let settleCap: Int
    var clock: StepClock = .wall

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
        let starts = built.bodies.map { animator.item($0)!.center }
        var settleSteps = 0
        while animator.isRunning && settleSteps < settleCap {
            try built.beforeStep(animator)
            animator.step()
            settleSteps += 1
        }
        let settled = !animator.isRunning
        guard let top = Self.highest(animator, built.bodies) else {
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
