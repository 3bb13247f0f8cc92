import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func instantaneousPushChangesVelocityBy100TimesMagnitudeOverMass() throws {
    let a = makeWorld(gravity: false, collision: false)
    let light = try a.addItem(width: 100, height: 100, center: Vec2(100, 100))
    let heavy = try a.addItem(width: 200, height: 100, center: Vec2(400, 400), properties: .init(density: 2))
    #expect(a.item(heavy)!.mass == 4)
    for id in [light, heavy] {
        var p = PushBehavior(items: [id], mode: .instantaneous)
        p.angle = 0
        p.magnitude = 2
        _ = try a.add(p)
    }
    a.step()
    #expect(abs(a.item(light)!.velocity.x - 200) / 200 < 0.01)
    #expect(abs(a.item(heavy)!.velocity.x - 50) / 50 < 0.01)
    a.run(seconds: 0.5)
    #expect(abs(a.item(light)!.velocity.x - 200) / 200 < 0.01)
}

@Test(.timeLimit(.minutes(3))) func instantaneousPushFiresOnceThenReadsInactive() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 100, height: 100, center: Vec2(100, 100))
    var p = PushBehavior(items: [id], mode: .instantaneous)
    p.magnitude = 1
    let pid = try a.add(p)
    #expect(a.push(pid)!.active)
    a.run(seconds: 0.5)
    #expect(a.push(pid)!.active == false)
    #expect(abs(a.item(id)!.velocity.x - 100) < 1)
}

@Test(.timeLimit(.minutes(3))) func continuousPushAcceleratesAt100TimesMagnitudeOverMass() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 200, height: 100, center: Vec2(100, 300))
    var p = PushBehavior(items: [id], mode: .continuous)
    p.pushDirection = Vec2(0, 1.5)
    _ = try a.add(p)
    a.run(seconds: 1)
    let expected = 100 * 1.5 / 2
    #expect(abs(a.item(id)!.velocity.y - expected) / expected < 0.01)
    #expect(abs(a.item(id)!.velocity.x) < 1e-9)
}

@Test(.timeLimit(.minutes(3))) func pushDirectionAndAngleMagnitudeStayInSync() {
    var p = PushBehavior(items: [1], mode: .continuous)
    p.pushDirection = Vec2(3, 4)
    #expect(abs(p.magnitude - 5) < 1e-12)
    #expect(abs(p.angle - 0.9272952180016122) < 1e-12)
    p.angle = Double.pi
    #expect(abs(p.pushDirection.x + 5) < 1e-12)
    p.magnitude = -1
    #expect(abs(p.pushDirection.x - 1) < 1e-12)
}

@Test(.timeLimit(.minutes(3))) func pushAtTargetOffsetTurnsTheItem() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 100, height: 100, center: Vec2(400, 300))
    var p = PushBehavior(items: [id], mode: .instantaneous)
    p.angle = Double.pi / 2
    p.magnitude = 1
    p.targetOffsets[id] = Vec2(40, 0)
    _ = try a.add(p)
    a.step()
    // A push along +y at +x offset turns the item toward +y: positive angular velocity.
    #expect(a.item(id)!.angularVelocity > 1)
    #expect(abs(a.item(id)!.velocity.y - 100) < 1)
}
