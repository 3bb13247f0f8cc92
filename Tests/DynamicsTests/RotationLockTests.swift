import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func allowsRotationFalseKeepsTheAngleExactlyUnderAnOffCentrePush() throws {
    let a = makeWorld()
    let locked = try a.addItem(width: 80, height: 40, center: Vec2(200, 300), angularVelocity: 3,
                               properties: .init(friction: 0.5, allowsRotation: false))
    let free = try a.addItem(width: 80, height: 40, center: Vec2(600, 300), properties: .init(friction: 0.5))
    for id in [locked, free] {
        var p = PushBehavior(items: [id], mode: .instantaneous)
        p.angle = -Double.pi / 2
        p.magnitude = 3
        p.targetOffsets[id] = Vec2(35, 15)
        _ = try a.add(p)
    }
    a.run(seconds: 2)
    #expect(a.item(locked)!.angle == 0)
    #expect(a.item(locked)!.angularVelocity == 0)
    #expect(a.item(free)!.angle != 0)
}

@Test(.timeLimit(.minutes(3))) func allowsRotationFalseKeepsANonZeroStartAngleBitExact() throws {
    let a = makeWorld()
    let start = 0.3
    let id = try a.addItem(width: 60, height: 30, center: Vec2(400, 200), angle: start,
                           properties: .init(allowsRotation: false))
    a.run(seconds: 2)
    #expect(a.item(id)!.angle == start)
}
