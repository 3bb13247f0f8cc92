import Testing
@testable import Dynamics

/// Drag as docs/ENGINE.md "Drag" states it: a bounded joint that follows an unobstructed pointer closely and
/// loses against boundaries, rods, snaps and other drags without breaking the world.

/// The item's speed and spin as reported, and its real motion over the last step (finite difference).
private struct Motion {
    var reported: Vec2
    var real: Vec2
    var spin: Double
}

private final class Watcher {
    let a: DynamicAnimator
    let id: ItemID
    var last: Vec2
    init(_ a: DynamicAnimator, _ id: ItemID) {
        self.a = a
        self.id = id
        last = a.center(id)
    }

    func step() -> Motion {
        a.step()
        let s = a.item(id)!
        defer { last = s.center }
        return Motion(reported: s.velocity, real: (s.center - last) * a.stepHz, spin: s.angularVelocity)
    }
}

/// Moving smoothly behind a pointer: neither the real nor the reported speed jumps beyond twice the
/// pointer's (a solver artefact would show thousands of pt/s).
private func expectSmooth(_ m: Motion, pointerSpeed: Double) {
    #expect(m.real.length <= 2 * pointerSpeed + 50, "real speed \(m.real.length) behind a pointer at \(pointerSpeed)")
    #expect(m.reported.length <= 2 * pointerSpeed + 50, "reported speed \(m.reported.length)")
    #expect(abs(m.spin) < 30, "spin \(m.spin) rad/s while moving")
}

/// The corner of a rectangle item farthest along +x.
private func rightmostX(_ s: ItemState) -> Double {
    let c = cosine(s.angle), sn = sine(s.angle)
    return s.center.x + abs(c) * s.width / 2 + abs(sn) * s.height / 2
}

@Test(.timeLimit(.minutes(3))) func unobstructedGrabPointTrailsByAtMostTwoTicksOfTravelAndArrivesWithin3Pt() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 80, height: 80, center: Vec2(200, 300))
    let offset = Vec2(10, -10)
    var pointer = Vec2(210, 290)
    let d = try a.add(DragBehavior(item: id, offset: offset, target: pointer))
    a.run(seconds: 0.5)
    let speed = 600.0, perTick = speed / a.stepHz
    var worst = 0.0
    for _ in 0..<40 {
        pointer.x += perTick
        try a.update(d, DragBehavior(item: id, offset: offset, target: pointer))
        a.step()
        let s = a.item(id)!
        let grab = s.center + Rot(angle: s.angle).rotate(offset)
        worst = max(worst, distance(grab, pointer))
    }
    #expect(worst <= 2 * perTick, "trailed by \(worst) pt (two ticks: \(2 * perTick) pt)")
    a.run(seconds: 0.1)
    let s = a.item(id)!
    let gap = distance(s.center + Rot(angle: s.angle).rotate(offset), pointer)
    #expect(gap < 3, "grab point \(gap) pt from the pointer 0.1 s after it stopped")
}

/// Drags a 50 x 50 box resting on the floor to the right wall and beyond (x = 900, then 5000).
@Test(.timeLimit(.minutes(3)), arguments: [Vec2(0, 0), Vec2(15, -15)])
func dragIntoTheWallStopsAgainstItWithoutSpinOrFakeVelocityAndReleasesGently(grab: Vec2) throws {
    let a = makeWorld()
    let id = try a.addItem(width: 50, height: 50, center: Vec2(600, 575), properties: .init(friction: 0.3))
    a.run(seconds: 0.5)
    var pointer = a.center(id) + grab
    let d = try a.add(DragBehavior(item: id, offset: grab, target: pointer))
    let w = Watcher(a, id)
    for _ in 0..<30 {
        pointer.x += 10
        try a.update(d, DragBehavior(item: id, offset: grab, target: pointer))
        _ = w.step()
    }
    for x in [900.0, 5000.0] {
        try a.update(d, DragBehavior(item: id, offset: grab, target: Vec2(x, pointer.y)))
        var worstOverlap = 0.0
        var worstVelocityError = 0.0
        for k in 0..<60 {
            let m = w.step()
            let s = a.item(id)!
            worstOverlap = max(worstOverlap, rightmostX(s) - 800)
            if k >= 30 {
                worstVelocityError = max(worstVelocityError, (m.reported - m.real).length)
                #expect(abs(m.spin) < 0.5, "spin \(m.spin) rad/s at x = \(x), step \(k)")
            }
        }
        #expect(worstOverlap <= 1, "sank \(worstOverlap) pt into the wall at x = \(x)")
        #expect(worstVelocityError < 25, "reported velocity off the real motion by \(worstVelocityError) pt/s")
        #expect(a.item(id)!.velocity.length < 10)
    }
    let before = a.item(id)!.velocity.length
    a.removeBehavior(d)
    var after = 0.0
    for _ in 0..<6 { after = max(after, w.step().reported.length) }
    #expect(after <= before + 50, "speed \(before) before the release, \(after) after")
}

/// The `attachment` scene's square hangs by a rigid rod; the pointer pulls it far beyond the rod's reach.
@Test(.timeLimit(.minutes(3))) func dragAgainstARigidRodHoldsTheRodAndReportsRealMotion() throws {
    let a = makeWorld()
    let anchor = Vec2(400, 90)
    let id = try a.addItem(width: 100, height: 100, center: Vec2(460, 270))
    let rod = try a.add(AttachmentBehavior.anchored(id, offset: Vec2(25, -25), to: anchor))
    let length = a.attachment(rod)!.length!
    a.run(seconds: 1)
    let d = try a.add(DragBehavior(item: id, offset: .zero, target: a.center(id)))
    let w = Watcher(a, id)
    var pointer = a.center(id)
    for _ in 0..<30 {
        pointer = pointer + Vec2(8, 8)
        try a.update(d, DragBehavior(item: id, offset: .zero, target: pointer))
        let m = w.step()
        expectSmooth(m, pointerSpeed: 8 * 60 * 2.0.squareRoot())
    }
    var worstStretch = 0.0
    for k in 0..<108 {   // 1.8 s held still, far beyond the rod
        let m = w.step()
        let s = a.item(id)!
        let end = s.center + Rot(angle: s.angle).rotate(Vec2(25, -25))
        worstStretch = max(worstStretch, abs(distance(end, anchor) - length))
        if k >= 30 {
            #expect((m.reported - m.real).length < 10, "reported \(m.reported), real \(m.real)")
            #expect(abs(m.spin) < 0.5, "spin \(m.spin)")
        }
    }
    #expect(worstStretch < 2, "rod stretched by \(worstStretch) pt")
    let before = a.item(id)!.velocity.length
    a.removeBehavior(d)
    var after = 0.0
    for _ in 0..<6 { after = max(after, w.step().reported.length) }
    #expect(after <= before + 50, "speed \(before) before the release, \(after) after")
}

@Test(.timeLimit(.minutes(3))) func dragAgainstASnapSettlesInBetweenAndTheSnapWinsAfterRelease() throws {
    let a = makeWorld(gravity: false)
    let id = try a.addItem(width: 80, height: 80, center: Vec2(400, 300))
    _ = try a.add(SnapBehavior(item: id, point: Vec2(400, 300)))
    let d = try a.add(DragBehavior(item: id, target: Vec2(400, 300)))
    let w = Watcher(a, id)
    for k in 1...20 {
        try a.update(d, DragBehavior(item: id, target: Vec2(400 + 10 * Double(k), 300)))
        expectSmooth(w.step(), pointerSpeed: 600)
    }
    a.run(seconds: 1)
    let held = a.item(id)!
    #expect(held.center.x > 400 && held.center.x <= 600, "held at \(held.center)")
    #expect(held.velocity.length < 5)
    a.removeBehavior(d)
    a.run(seconds: 3)
    #expect(distance(a.center(id), Vec2(400, 300)) < 2)
}

@Test(.timeLimit(.minutes(3))) func twoDragsFightingSettleInBetweenAndTheSurvivorLeadsAfterwards() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 60, height: 60, center: Vec2(400, 300))
    let left = try a.add(DragBehavior(item: id, offset: Vec2(-20, 0), target: Vec2(100, 300)))
    let right = try a.add(DragBehavior(item: id, offset: Vec2(20, 0), target: Vec2(700, 300)))
    let w = Watcher(a, id)
    for k in 0..<90 {
        let m = w.step()
        if k >= 30 {
            #expect((m.reported - m.real).length < 10)
            #expect(abs(m.spin) < 0.5)
        }
    }
    let held = a.item(id)!
    #expect(abs(held.center.x - 400) < 5, "held at \(held.center)")
    #expect(held.velocity.length < 5)
    a.removeBehavior(left)
    a.run(seconds: 1.5)
    let s = a.item(id)!
    let grab = s.center + Rot(angle: s.angle).rotate(Vec2(20, 0))
    #expect(distance(grab, Vec2(700, 300)) < 3)
    _ = right
}
