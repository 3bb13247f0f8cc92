import Testing
@testable import Dynamics

/// Fixed, sliding and pin attachments (docs/UIKIT.md, Attachments), measured under gravity and load.

/// `local` of the item in world coordinates.
private func worldPoint(_ a: DynamicAnimator, _ id: ItemID, _ local: Vec2) -> Vec2 {
    let s = a.item(id)!
    return s.center + Rot(angle: s.angle).rotate(local)
}

@Test(.timeLimit(.minutes(3))) func weldKeepsACantileverStraightUnderLoad() throws {
    let a = makeWorld()
    let wall = try a.addItem(width: 40, height: 200, center: Vec2(200, 300), properties: ItemProperties(anchored: true))
    let beam = try a.addItem(width: 200, height: 20, center: Vec2(320, 300))
    let load = try a.addItem(width: 40, height: 40, center: Vec2(400, 270), properties: ItemProperties(density: 3))
    _ = try a.add(FixedAttachmentBehavior(item: beam, otherItem: wall))
    a.run(seconds: 2)
    let b = a.item(beam)!
    #expect(abs(b.angle) < 0.02, "the beam does not droop: angle \(b.angle)")
    #expect(distance(b.center, Vec2(320, 300)) < 1.5, "nor sag: \(b.center)")
    #expect(a.item(load)!.center.y < 280, "and carries its load: \(a.item(load)!.center)")
}

@Test(.timeLimit(.minutes(3))) func weldedPairFallsAndLandsAsOneBody() throws {
    let a = makeWorld()
    let left = try a.addItem(width: 60, height: 60, center: Vec2(370, 200), angle: 0.3)
    let right = try a.addItem(width: 60, height: 30, center: Vec2(460, 200), angle: -0.2)
    let before = Rot(angle: a.item(left)!.angle).inverseRotate(a.center(right) - a.center(left))
    let relativeAngle = a.item(right)!.angle - a.item(left)!.angle
    _ = try a.add(FixedAttachmentBehavior(item: right, otherItem: left))
    func deviation() -> Double {
        distance(Rot(angle: a.item(left)!.angle).inverseRotate(a.center(right) - a.center(left)), before)
    }
    var worstFalling = 0.0
    a.run(seconds: 0.6) { worstFalling = max(worstFalling, deviation()) }
    a.run(seconds: 2.4)
    // The weld is as stiff as the solver's rigid joints: exact in free fall, back in shape after the impact.
    #expect(worstFalling < 0.1, "the pair keeps its shape while it falls: \(worstFalling) pt")
    #expect(deviation() < 1, "and once it has landed: \(deviation()) pt")
    #expect(abs(a.item(right)!.angle - a.item(left)!.angle - relativeAngle) < 0.02)
    #expect(a.center(left).y > 500, "it landed")
}

@Test(.timeLimit(.minutes(3))) func weldToAMovingAnchorCarriesTheItemTurnedAsItWas() throws {
    let a = makeWorld()
    let box = try a.addItem(width: 60, height: 60, center: Vec2(400, 300), angle: 0.4)
    let weld = try a.add(FixedAttachmentBehavior(item: box, anchor: Vec2(400, 300)))
    a.run(seconds: 0.5)
    try a.moveJointAnchor(weld, to: Vec2(500, 250))
    a.run(seconds: 1)
    #expect(distance(a.center(box), Vec2(500, 250)) < 1.5, "\(a.center(box))")
    #expect(abs(a.item(box)!.angle - 0.4) < 0.02)
}

@Test(.timeLimit(.minutes(3))) func slidingStaysOnItsAxisWithinItsRange() throws {
    let a = makeWorld()
    let slider = try a.addItem(width: 40, height: 40, center: Vec2(300, 200))
    // A rail down and to the right at 45°: gravity slides the item along it until the range stops it.
    let axis = Vec2(1, 1).normalized
    _ = try a.add(SlidingAttachmentBehavior(item: slider, anchor: Vec2(300, 200), axis: axis, range: -50...120))
    var worstOff = 0.0, furthest = 0.0, worstAngle = 0.0
    a.run(seconds: 2) {
        let d = a.center(slider) - Vec2(300, 200)
        worstOff = max(worstOff, abs(d.cross(axis)))
        furthest = max(furthest, d.dot(axis))
        worstAngle = max(worstAngle, abs(a.item(slider)!.angle))
    }
    #expect(worstOff < 1, "off the axis by \(worstOff) pt")
    #expect(furthest < 121.5, "past the range: \(furthest)")
    #expect(abs((a.center(slider) - Vec2(300, 200)).dot(axis) - 120) < 1.5, "rests at the end of the range")
    #expect(worstAngle < 0.01)
}

@Test(.timeLimit(.minutes(3))) func slidingBetweenTwoItemsFollowsTheOtherItemsAxis() throws {
    let a = makeWorld(gravity: false)
    let rail = try a.addItem(width: 300, height: 20, center: Vec2(400, 300), properties: ItemProperties(anchored: true))
    let bead = try a.addItem(width: 30, height: 30, center: Vec2(400, 260), velocity: Vec2(200, 150))
    _ = try a.add(SlidingAttachmentBehavior(item: bead, otherItem: rail, axis: Vec2(1, 0), range: -100...100))
    a.run(seconds: 2)
    #expect(abs(a.center(bead).y - 260) < 1, "\(a.center(bead))")
    #expect(abs(a.center(bead).x - 500) < 1.5, "stopped at +100: \(a.center(bead))")
}

@Test(.timeLimit(.minutes(3))) func pinStaysWithinItsRange() throws {
    let a = makeWorld()
    let bar = try a.addItem(width: 160, height: 20, center: Vec2(480, 200))
    // Hinged at its left end; free, gravity would swing it to hang straight down (+π/2).
    _ = try a.add(PinAttachmentBehavior(item: bar, point: Vec2(400, 200), range: -0.5...0.5))
    var largest = 0.0, worstGap = 0.0
    a.run(seconds: 2) {
        largest = max(largest, a.item(bar)!.angle)
        worstGap = max(worstGap, distance(worldPoint(a, bar, Vec2(-80, 0)), Vec2(400, 200)))
    }
    #expect(largest < 0.52, "the bar turned \(largest) rad, past 0.5")
    #expect(abs(a.item(bar)!.angle - 0.5) < 0.02, "rests on the limit: \(a.item(bar)!.angle)")
    #expect(worstGap < 1, "the pin held: \(worstGap) pt")
}

@Test(.timeLimit(.minutes(3))) func frictionTorqueSlowsASpinAtTheRateItsTorqueGives() throws {
    func spin(friction: Double) throws -> Double {
        let a = makeWorld(gravity: false)
        let wheel = try a.addItem(width: 100, height: 100, center: Vec2(400, 300))
        _ = try a.add(PinAttachmentBehavior(item: wheel, point: Vec2(400, 300), frictionTorque: friction))
        try a.addAngularVelocity(10, to: wheel)
        a.run(seconds: 1)
        return a.item(wheel)!.angularVelocity
    }
    // 1 N·m on a 100 x 100 item of mass 1 (I = 1666.7 mass·pt² = 0.1667 kg·m²): 6 rad/s² of deceleration.
    #expect(abs(try spin(friction: 0) - 10) < 1e-6)
    let slowed = try spin(friction: 1)
    #expect(abs(slowed - 4) < 0.1, "after 1 s: \(slowed) rad/s")
    #expect(try spin(friction: 10) == 0, "a large friction torque stops it")
}

@Test(.timeLimit(.minutes(3))) func removingAnItemRemovesItsJointAttachments() throws {
    let a = makeWorld()
    let one = try a.addItem(width: 40, height: 40, center: Vec2(300, 300))
    let two = try a.addItem(width: 40, height: 40, center: Vec2(360, 300))
    let weld = try a.add(FixedAttachmentBehavior(item: two, otherItem: one))
    a.run(seconds: 0.2)
    a.removeItem(one)
    #expect(a.jointAttachment(weld) == nil)
    a.run(seconds: 0.5)
    #expect(a.center(two).y > 300)
}
