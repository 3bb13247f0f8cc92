import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Contact events": opt-in, and bounded per step.
@Test(.timeLimit(.minutes(3))) func contactEventsAreNotRecordedWhenDisabled() throws {
    let a = makeWorld()
    a.contactEventsEnabled = false
    _ = try a.addItem(width: 50, height: 50, center: Vec2(400, 560))
    a.run(seconds: 1)
    #expect(a.takeContactEvents().isEmpty)
    a.contactEventsEnabled = true
    _ = try a.addItem(width: 50, height: 50, center: Vec2(200, 560))
    a.run(seconds: 1)
    #expect(a.takeContactEvents().contains { if case .began = $0 { true } else { false } })
}

@Test(.timeLimit(.minutes(3))) func onePileCollapsingRecordsAtMostTheLimitPerStepAndCountsTheRest() throws {
    let a = makeWorld(gravity: false)
    // 120 overlapping items at one point: 7 140 pairs begin touching in the first step.
    for _ in 0..<120 { _ = try a.addItem(width: 30, height: 30, center: Vec2(400, 300)) }
    a.step()
    let events = a.takeContactEvents()
    #expect(events.count == DynamicAnimator.maxContactEventsPerStep)
    #expect(a.droppedContactEvents > 0)
}
