import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Impulses": every instantaneous push acknowledged before a step acts in that step.
@Test(.timeLimit(.minutes(3))) func twoUpdatesOfOneInstantaneousPushInOneStepAddUp() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 80, height: 80, center: Vec2(400, 300))
    var p = PushBehavior(items: [id], mode: .instantaneous)
    p.magnitude = 1
    let pid = try a.add(p)
    try a.update(pid, p)
    a.step()
    // Mass 0.64: each push changes the velocity by 100 / 0.64 = 156.25 pt/s.
    #expect(abs(a.item(id)!.velocity.x - 312.5) < 1e-9)
    #expect(a.push(pid)!.active == false)
}

@Test(.timeLimit(.minutes(3))) func threeInstantaneousPushBehaviorsOnOneItemInOneStepAddUp() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 100, height: 100, center: Vec2(400, 300))
    for angle in [0.0, Double.pi / 2, 0] {
        var p = PushBehavior(items: [id], mode: .instantaneous)
        p.angle = angle
        p.magnitude = 1
        _ = try a.add(p)
    }
    a.step()
    let v = a.item(id)!.velocity
    #expect(abs(v.x - 200) < 1e-6)
    #expect(abs(v.y - 100) < 1e-6)
}

@Test(.timeLimit(.minutes(3))) func continuousPushOfMagnitudeZeroLetsItsItemSleep() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 80, height: 80, center: Vec2(400, 300))
    _ = try a.add(PushBehavior(items: [id], mode: .continuous))
    a.run(seconds: 1)
    #expect(a.isRunning == false)
}

@Test(.timeLimit(.minutes(3))) func inactiveContinuousPushLetsItsItemSleep() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 80, height: 80, center: Vec2(400, 300))
    var p = PushBehavior(items: [id], mode: .continuous)
    p.magnitude = 2
    p.active = false
    _ = try a.add(p)
    a.run(seconds: 1)
    #expect(a.isRunning == false)
    #expect(a.item(id)!.center == Vec2(400, 300))
}

@Test(.timeLimit(.minutes(3))) func unchangedPropertiesDoNotWakeARestingWorld() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 50, height: 50, center: Vec2(400, 575))
    let other = try a.addItem(width: 50, height: 50, center: Vec2(200, 575))
    a.run(seconds: 2)
    #expect(a.isRunning == false)
    try a.setProperties(id, a.item(id)!.properties)
    #expect(a.isRunning == false)
    // A real change wakes that item only, and the world rests again.
    try a.setProperties(other, ItemProperties(friction: 0.5))
    #expect(a.isRunning)
    var steps = 0
    while a.isRunning && steps < 120 { a.step(); steps += 1 }
    #expect(steps <= 40, "rested again after \(steps) steps")
}

@Test(.timeLimit(.minutes(3))) func wakingOneItemLeavesADistantRestingItemAsleep() throws {
    let a = makeWorld()
    let left = try a.addItem(width: 50, height: 50, center: Vec2(100, 575))
    let right = try a.addItem(width: 50, height: 50, center: Vec2(700, 575))
    a.run(seconds: 2)
    #expect(a.isRunning == false)
    try a.wake(item: left)
    #expect(a.isRunning)
    #expect(a.world.bodies[a.indexOf[left]!].awake)
    #expect(a.world.bodies[a.indexOf[right]!].awake == false)
}
