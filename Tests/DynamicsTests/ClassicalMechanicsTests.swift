import Testing
@testable import Dynamics

/// Part H's classical checks, each against its closed form (docs/ENGINE.md, "Classical mechanics").
@Suite(.timeLimit(.minutes(1)))
struct ClassicalMechanicsTests {
    /// A box launched along the floor stops after v²/(2μg), μ = sqrt(f × 0.2) against a boundary (Part F).
    @Test(arguments: [(1.0, 300.0), (0.5, 400.0)])
    func aSlidingBoxStopsAfterTheFrictionDistance(friction: Double, speed: Double) throws {
        let a = makeWorld()
        let box = try a.addItem(width: 40, height: 40, center: Vec2(100, 580),
                                properties: .init(friction: friction, allowsRotation: false))
        a.run(seconds: 0.5)
        let start = a.center(box)
        try a.addLinearVelocity(Vec2(speed, 0), to: box)
        a.run(seconds: 3)
        let mu = (friction * Tuning.boundaryFriction).squareRoot()
        let expected = speed * speed / (2 * mu * 1000)
        let slid = a.center(box).x - start.x
        #expect(abs(a.item(box)!.velocity.x) < 1)
        #expect(abs(slid - expected) / expected < 0.04, "slid \(slid) pt, expected \(expected) pt")
    }

    /// A rigid pendulum of length L swings with period 2π√(L/g) at small amplitude.
    @Test(arguments: [100.0, 250.0])
    func aRigidPendulumSwingsWithTheClassicalPeriod(length: Double) throws {
        let a = makeWorld(collision: false)
        let pivot = Vec2(400, 100)
        let amplitude = 0.08
        let bob = try a.addItem(shape: .ellipse, width: 10, height: 10,
                                center: pivot + Vec2(sine(amplitude), cosine(amplitude)) * length)
        _ = try a.add(AttachmentBehavior.anchored(bob, to: pivot))
        // Times at which the bob crosses below the pivot going the same way.
        var crossings: [Double] = []
        var last = a.center(bob).x - pivot.x
        a.run(seconds: 5) {
            let x = a.center(bob).x - pivot.x
            if last > 0 && x <= 0 { crossings.append(a.elapsedTime - (1 / a.stepHz) * x / (x - last)) }
            last = x
        }
        try #require(crossings.count >= 2)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        let expected = 2 * Double.pi * (length / 1000).squareRoot()
        #expect(abs(period - expected) / expected < 0.03, "period \(period) s, expected \(expected) s")
    }

    /// Head-on elastic collisions of circles (no gravity): momentum and energy conserved, velocities exchanged
    /// as (m1 − m2)/(m1 + m2) v and 2 m1/(m1 + m2) v.
    @Test(arguments: [1.0, 2.0])
    func aHeadOnElasticCollisionConservesMomentumAndEnergy(massRatio: Double) throws {
        let a = makeWorld(gravity: false, collision: false)
        _ = a.add(CollisionBehavior(mode: .items, translatesReferenceBoundsIntoBoundary: false))
        let v = 300.0
        let one = try a.addItem(shape: .ellipse, width: 40, height: 40, center: Vec2(200, 300), velocity: Vec2(v, 0),
                                properties: .init(elasticity: 1, density: massRatio))
        let two = try a.addItem(shape: .ellipse, width: 40, height: 40, center: Vec2(400, 300),
                                properties: .init(elasticity: 1))
        a.run(seconds: 1.5)
        let m1 = a.item(one)!.mass, m2 = a.item(two)!.mass
        let v1 = a.item(one)!.velocity.x, v2 = a.item(two)!.velocity.x
        let expect1 = (m1 - m2) / (m1 + m2) * v, expect2 = 2 * m1 / (m1 + m2) * v
        #expect(abs(v1 - expect1) < 0.03 * v, "v1 \(v1), expected \(expect1)")
        #expect(abs(v2 - expect2) < 0.03 * v, "v2 \(v2), expected \(expect2)")
        #expect(abs(m1 * v1 + m2 * v2 - m1 * v) < 0.01 * m1 * v)
        let energy = 0.5 * m1 * v1 * v1 + 0.5 * m2 * v2 * v2, before = 0.5 * m1 * v * v
        #expect(abs(energy - before) / before < 0.03, "energy \(energy), before \(before)")
        #expect(abs(a.item(one)!.velocity.y) < 1e-6 && abs(a.item(two)!.velocity.y) < 1e-6)
    }
}
