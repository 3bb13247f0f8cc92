import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func freeFallAcceleratesAt1000PointsPerSecondSquaredPerUnitMagnitude() throws {
    for magnitude in [1.0, 2.5] {
        let a = DynamicAnimator(width: 800, height: 600)
        _ = a.add(GravityBehavior(direction: Vec2(0, magnitude)))
        let id = try a.addItem(width: 20, height: 20, center: Vec2(400, 0))
        a.run(seconds: 1)
        let s = a.item(id)!
        let expected = 1000 * magnitude
        #expect(abs(s.velocity.y - expected) / expected < 0.01)
        #expect(abs(s.center.y - 0.5 * expected) / (0.5 * expected) < 0.01)
        #expect(s.velocity.x == 0)
    }
}

@Test(.timeLimit(.minutes(3))) func gravityAngleAndMagnitudeSettersKeepTheOtherValue() {
    var g = GravityBehavior()
    #expect(abs(g.angle - Double.pi / 2) < 1e-12)
    #expect(g.magnitude == 1)
    g.magnitude = 3
    #expect(abs(g.direction.y - 3) < 1e-12 && abs(g.direction.x) < 1e-12)
    g.angle = 0
    #expect(abs(g.direction.x - 3) < 1e-12 && abs(g.direction.y) < 1e-12)
    g.magnitude = -2
    #expect(abs(g.direction.x + 2) < 1e-12)
    let h = GravityBehavior(angle: Double.pi, magnitude: 0.5)
    #expect(abs(h.direction.x + 0.5) < 1e-12)
}

@Test(.timeLimit(.minutes(3))) func gravityOnlyActsOnSelectedItems() throws {
    let a = DynamicAnimator(width: 800, height: 600)
    let falling = try a.addItem(width: 20, height: 20, center: Vec2(100, 100))
    let floating = try a.addItem(width: 20, height: 20, center: Vec2(300, 100))
    _ = a.add(GravityBehavior(items: .only([falling])))
    a.run(seconds: 0.5)
    #expect(a.center(falling).y > 200)
    #expect(a.center(floating) == Vec2(300, 100))
}
