import Testing
@testable import Dynamics

private func insideBounds(_ a: DynamicAnimator, _ id: ItemID) -> Bool {
    let s = a.item(id)!
    return s.center.isFinite && s.velocity.isFinite && s.angle.isFinite && s.angularVelocity.isFinite
        && s.center.x > 0 && s.center.x < 800 && s.center.y > 0 && s.center.y < 600
}

@Test(.timeLimit(.minutes(3)), arguments: [PushMode.instantaneous, .continuous], [1e6, 1e9])
func hugePushIntoABoundaryNeitherTunnelsNorMakesNaN(mode: PushMode, magnitude: Double) throws {
    let a = makeWorld()
    let box = try a.addItem(width: 40, height: 40, center: Vec2(400, 300))
    let ball = try a.addItem(shape: .ellipse, width: 30, height: 30, center: Vec2(300, 300))
    for (id, angle) in [(box, 0.0), (ball, 2.5)] {
        var p = PushBehavior(items: [id], mode: mode)
        p.angle = angle
        p.magnitude = magnitude
        _ = try a.add(p)
    }
    for _ in 0..<180 {
        a.step()
        #expect(insideBounds(a, box) && insideBounds(a, ball))
    }
}

@Test(.timeLimit(.minutes(3))) func hugePushCannotTunnelThroughAThinNamedSegment() throws {
    let a = makeWorld(gravity: false, collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.addBoundary(id: "wall", from: Vec2(500, 0), to: Vec2(500, 600))
    _ = a.add(c)
    let id = try a.addItem(width: 10, height: 10, center: Vec2(100, 300))
    var p = PushBehavior(items: [id], mode: .instantaneous)
    p.magnitude = 1e6
    _ = try a.add(p)
    a.run(seconds: 2)
    #expect(a.center(id).x < 500)
    #expect(a.center(id).isFinite)
}

@Test(.timeLimit(.minutes(3))) func snapFromAMillionPointsAwayStaysFinite() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 40, height: 40, center: Vec2(400, 300))
    _ = try a.add(SnapBehavior(item: id, point: Vec2(1e6, -1e6)))
    a.run(seconds: 2) { #expect(insideBounds(a, id)) }
    let free = try a.addItem(width: 40, height: 40, center: Vec2(-1e6, 1e6))
    let b = DynamicAnimator(width: 800, height: 600)
    let far = try b.addItem(width: 40, height: 40, center: Vec2(-1e6, 1e6))
    _ = try b.add(SnapBehavior(item: far, point: Vec2(400, 300)))
    b.run(seconds: 3)
    #expect(b.item(far)!.center.isFinite && b.item(far)!.velocity.isFinite)
    #expect(distance(b.center(far), Vec2(400, 300)) < 1.5e6)
    _ = free
}

@Test(.timeLimit(.minutes(3))) func draggingTowardAnAnchorFarOutsideTheWorldKeepsTheItemInside() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 50, height: 50, center: Vec2(400, 300))
    var drag = AttachmentBehavior.anchored(id, to: Vec2(400, 300))
    drag.length = 0
    let bid = try a.add(drag)
    drag.anchor = Vec2(5e8, -5e8)
    try a.update(bid, drag)
    a.run(seconds: 2) { #expect(insideBounds(a, id)) }
}

@Test(.timeLimit(.minutes(3))) func hugeVelocitiesAtCreationAreClampedAndFinite() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 20, height: 20, center: Vec2(400, 300), velocity: Vec2(1e300, -1e300),
                           angularVelocity: 1e300)
    #expect(a.item(id)!.velocity.length <= Tuning.maxLinearSpeed * 1.0000001)
    a.run(seconds: 1) { #expect(insideBounds(a, id)) }
}
