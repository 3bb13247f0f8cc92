import Testing
@testable import Dynamics

/// Snaps a tilted box across the world under gravity; returns the final state and the largest overshoot
/// past the snap point along the approach direction.
private func snap(damping: Double) throws -> (distance: Double, angle: Double, overshoot: Double) {
    let a = makeWorld()
    let start = Vec2(100, 100), target = Vec2(600, 450)
    let id = try a.addItem(width: 60, height: 40, center: start, angle: 1.2)
    _ = try a.add(SnapBehavior(item: id, point: target, damping: damping))
    let dir = (target - start).normalized
    var overshoot = 0.0
    a.run(seconds: 3) { overshoot = max(overshoot, (a.center(id) - target).dot(dir)) }
    let s = a.item(id)!
    return (distance(s.center, target), s.angle, overshoot)
}

@Test(.timeLimit(.minutes(3))) func snapSettlesWithinOnePointAndAngleZeroInThreeSecondsAtDefaultDamping() throws {
    #expect(SnapBehavior(item: 1, point: .zero).damping == 0.5)
    let r = try snap(damping: 0.5)
    #expect(r.distance < 1)
    #expect(abs(r.angle) < 0.01)
}

@Test(.timeLimit(.minutes(3))) func snapOvershootsLessWithDampingOne() throws {
    let soft = try snap(damping: 0.5)
    let firm = try snap(damping: 1)
    #expect(firm.distance < 1 && abs(firm.angle) < 0.01)
    #expect(soft.overshoot > 1)
    #expect(firm.overshoot < soft.overshoot / 2)
}

@Test(.timeLimit(.minutes(3))) func snapSettlesEvenWithZeroDamping() throws {
    let r = try snap(damping: 0)
    #expect(r.distance < 2 && abs(r.angle) < 0.05)
}

@Test(.timeLimit(.minutes(3))) func removingTheSnapLetsGravityActAgain() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 40, height: 40, center: Vec2(400, 300))
    let sid = try a.add(SnapBehavior(item: id, point: Vec2(400, 200)))
    a.run(seconds: 2)
    #expect(distance(a.center(id), Vec2(400, 200)) < 1)
    #expect(a.removeBehavior(sid))
    a.run(seconds: 2)
    #expect(abs(a.center(id).y - 580) < 1)
}
