@testable import Dynamics
import Testing

/// `DynamicAnimator.onStepStage` hears every stage of a step in `StepStage` order (docs/ARCHITECTURE.md,
/// "The physics step"), and nothing while paused.
@Test(.timeLimit(.minutes(3))) func aStepRunsEveryStageInStepStageOrder() throws {
    let a = DynamicAnimator(width: 800, height: 600)
    _ = a.add(GravityBehavior())
    _ = a.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: true))
    _ = try a.addItem(width: 40, height: 40, center: Vec2(400, 100), properties: ItemProperties(elasticity: 0.8))
    var heard: [StepStage] = []
    a.onStepStage = { heard.append($0) }
    for _ in 0..<3 {
        heard.removeAll()
        a.step()
        #expect(heard == StepStage.allCases)
    }
}

@Test(.timeLimit(.minutes(3))) func aPausedAnimatorHearsNoStageAndStepsOnWithoutAnObserver() throws {
    let a = DynamicAnimator(width: 800, height: 600)
    _ = a.add(CollisionBehavior(translatesReferenceBoundsIntoBoundary: true))
    let id = try a.addItem(width: 40, height: 40, center: Vec2(400, 580))
    var steps = 0
    while a.isRunning && steps < 600 { a.step(); steps += 1 }
    #expect(!a.isRunning, "an item resting on the floor puts the animator to sleep")
    var heard = 0
    a.onStepStage = { _ in heard += 1 }
    a.step()
    #expect(heard == 0)
    a.onStepStage = nil
    try a.addLinearVelocity(Vec2(0, -100), to: id)
    #expect(a.isRunning)
    a.step()
    #expect(a.item(id)!.center.y < 580)
}
