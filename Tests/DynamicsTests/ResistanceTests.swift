import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func resistanceDecaysLinearVelocityExponentially() throws {
    let a = makeWorld(gravity: false, collision: false)
    let damped = try a.addItem(width: 10, height: 10, center: Vec2(0, 100), velocity: Vec2(100, 0),
                               properties: .init(resistance: 1))
    let free = try a.addItem(width: 10, height: 10, center: Vec2(0, 300), velocity: Vec2(100, 0))
    a.run(seconds: 1)
    // v(1 s) = 100 / (1 + dt)^(1/dt) ≈ 100 / e.
    #expect(abs(a.item(damped)!.velocity.x - 36.8) < 0.5)
    #expect(a.item(free)!.velocity.x == 100)
}

@Test(.timeLimit(.minutes(3))) func hugeResistanceHoldsTheItemStillUnderGravity() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 10, height: 10, center: Vec2(400, 100), properties: .init(resistance: 1e12))
    a.run(seconds: 1)
    #expect(distance(a.center(id), Vec2(400, 100)) < 1e-3)
}

@Test(.timeLimit(.minutes(3))) func angularResistanceDecaysAngularVelocity() throws {
    let a = makeWorld(gravity: false, collision: false)
    let id = try a.addItem(width: 10, height: 10, center: Vec2(100, 100), angularVelocity: 2,
                           properties: .init(angularResistance: 2))
    a.run(seconds: 1)
    // 2 / (1 + 2 dt)^(1/dt) ≈ 2 e^-2 ≈ 0.27
    #expect(abs(a.item(id)!.angularVelocity - 0.27) < 0.01)
}
