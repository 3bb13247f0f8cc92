import Testing
@testable import Dynamics

/// Item groups (UIDynamicItemGroup, docs/UIKIT.md): rigid composites of convex items.

@Test(.timeLimit(.minutes(3))) func aConcaveLShapedGroupFallsAndRestsStably() throws {
    let a = makeWorld()
    let foot = try a.addItem(width: 120, height: 30, center: Vec2(400, 300), properties: ItemProperties(friction: 0.5))
    let upright = try a.addItem(width: 30, height: 90, center: Vec2(355, 240), properties: ItemProperties(friction: 0.5))
    _ = try a.add(ItemGroupBehavior(items: [foot, upright]))
    let offset = a.center(upright) - a.center(foot)
    a.run(seconds: 3)
    let rested = (a.item(foot)!, a.item(upright)!)
    #expect(abs(rested.0.center.y - 585) < 1.5, "the foot lies on the floor: \(rested.0.center)")
    #expect(abs(rested.0.angle) < 0.02 && abs(rested.1.angle) < 0.02, "upright: \(rested.0.angle), \(rested.1.angle)")
    #expect(distance(rested.1.center - rested.0.center, offset) < 1, "the L keeps its shape")
    a.run(seconds: 2)
    #expect(distance(a.center(foot), rested.0.center) < 0.5 && abs(a.item(foot)!.angle - rested.0.angle) < 0.005,
            "and stays put: \(a.center(foot))")
}

@Test(.timeLimit(.minutes(3))) func aTiltedLGroupLandsOnTwoPointsAndSettles() throws {
    let a = makeWorld()
    let arm = try a.addItem(width: 140, height: 24, center: Vec2(400, 200), angle: 0.5)
    // The second arm at right angles from the first one's left end: a concave V opening upward.
    let c = Rot(angle: 0.5)
    let end = Vec2(400, 200) + c.rotate(Vec2(-70, 0))
    let other = try a.addItem(width: 24, height: 140, center: end + c.rotate(Vec2(12, -70)), angle: 0.5)
    _ = try a.add(ItemGroupBehavior(items: [arm, other]))
    a.run(seconds: 4)
    let before = (a.center(arm), a.item(arm)!.angle)
    a.run(seconds: 1)
    #expect(distance(a.center(arm), before.0) < 0.5 && abs(a.item(arm)!.angle - before.1) < 0.005, "settled")
    #expect(abs(a.item(arm)!.velocity.y) < 1 && abs(a.item(other)!.angularVelocity) < 0.05)
}

@Test(.timeLimit(.minutes(3))) func membersOfAGroupDoNotCollideWithEachOther() throws {
    let a = makeWorld(gravity: false)
    let one = try a.addItem(width: 80, height: 80, center: Vec2(400, 300))
    let two = try a.addItem(width: 80, height: 80, center: Vec2(430, 300))
    _ = try a.add(ItemGroupBehavior(items: [one, two]))
    a.run(seconds: 1)
    #expect(distance(a.center(one), Vec2(400, 300)) < 0.01 && distance(a.center(two), Vec2(430, 300)) < 0.01)
}

@Test(.timeLimit(.minutes(3))) func aPushOnOneMemberMovesTheWholeGroupAndUngroupSplitsIt() throws {
    let a = makeWorld(gravity: false)
    let one = try a.addItem(width: 50, height: 50, center: Vec2(300, 300))
    let two = try a.addItem(width: 50, height: 50, center: Vec2(350, 300))
    let group = try a.add(ItemGroupBehavior(items: [one, two]))
    #expect(a.group(of: two) == group && a.groupItems(group) == [one, two])
    try a.addLinearVelocity(Vec2(0, 100), to: one)
    a.run(seconds: 0.5)
    #expect(a.item(two)!.velocity.y > 20, "the other member moves too: \(a.item(two)!.velocity)")
    #expect(abs((a.center(two) - a.center(one)).length - 50) < 0.5)
    #expect(a.removeGroup(group))
    #expect(a.group(of: one) == nil)
    let oneBefore = a.item(one)!.velocity
    try a.addLinearVelocity(Vec2(300, 0), to: two)
    a.run(seconds: 0.1)
    #expect((a.center(two) - a.center(one)).length > 75, "split: the pushed item leaves the other behind")
    #expect(distance(a.item(one)!.velocity, oneBefore) < 1, "and the other keeps its own motion")
}

@Test(.timeLimit(.minutes(3))) func invalidGroupsAreRejected() throws {
    let a = makeWorld()
    let one = try a.addItem(width: 50, height: 50, center: Vec2(300, 300))
    let two = try a.addItem(width: 50, height: 50, center: Vec2(350, 300))
    #expect(throws: DynamicsError.self) { try a.add(ItemGroupBehavior(items: [one])) }
    #expect(throws: DynamicsError.self) { try a.add(ItemGroupBehavior(items: [one, 99])) }
    _ = try a.add(ItemGroupBehavior(items: [one, two]))
    let three = try a.addItem(width: 50, height: 50, center: Vec2(400, 300))
    #expect(throws: DynamicsError.self) { try a.add(ItemGroupBehavior(items: [two, three])) }
}

@Test(.timeLimit(.minutes(3))) func removingAMemberKeepsTheRestGrouped() throws {
    let a = makeWorld(gravity: false)
    let ids = try (0..<3).map { k in try a.addItem(width: 40, height: 40, center: Vec2(300 + Double(k) * 40, 300)) }
    let group = try a.add(ItemGroupBehavior(items: ids))
    a.removeItem(ids[0])
    #expect(a.groupItems(group) == [ids[1], ids[2]])
    try a.addLinearVelocity(Vec2(0, 100), to: ids[1])
    a.run(seconds: 0.3)
    #expect(a.item(ids[2])!.velocity.y > 20)
}

@Test(.timeLimit(.minutes(3))) func aGroupStaysExactlyRigidThroughAHardImpact() throws {
    // An L thrown at the floor at 3 000 pt/s and struck by a heavy ball: the welds alone would give for a
    // moment; the composite's members keep their relative poses exactly at every step (docs/UIKIT.md).
    let a = makeWorld()
    let foot = try a.addItem(width: 120, height: 30, center: Vec2(400, 300), velocity: Vec2(0, 3000))
    let upright = try a.addItem(width: 30, height: 90, center: Vec2(355, 240), angle: 0.1)
    let ball = try a.addItem(shape: .ellipse, width: 60, height: 60, center: Vec2(700, 240), velocity: Vec2(-2500, 0),
                             properties: ItemProperties(elasticity: 1, density: 20))
    _ = try a.add(ItemGroupBehavior(items: [foot, upright]))
    let gap = a.center(upright) - a.center(foot)
    let turn = a.item(upright)!.angle - a.item(foot)!.angle
    var worstGap = 0.0, worstTurn = 0.0, steps = 0
    a.run(seconds: 1.5) {
        steps += 1
        let footNow = a.item(foot)!, uprightNow = a.item(upright)!
        // The offset between the centers, turned back into the frame the group was made in.
        let back = Rot(angle: -footNow.angle).rotate(uprightNow.center - footNow.center)
        worstGap = max(worstGap, distance(back, gap))
        worstTurn = max(worstTurn, abs(uprightNow.angle - footNow.angle - turn))
    }
    #expect(steps == 90)
    #expect(worstGap < 1e-6, "members drifted \(worstGap) pt apart")
    #expect(worstTurn < 1e-9, "members turned \(worstTurn) rad against each other")
    #expect(a.center(foot).y < 600 && a.center(ball).x > 0, "everything stayed inside")
}

/// A group with an anchored member does not move at all: its other members stay exactly where they were
/// grouped, under gravity, however long it runs (the welds alone are soft and let them sag 0.02 pt a second).
@Test(.timeLimit(.minutes(3))) func aGroupWithAnAnchoredMemberHoldsItsOthersExactlyInPlace() throws {
    let a = makeWorld()
    let post = try a.addItem(width: 30, height: 120, center: Vec2(400, 300), properties: .init(anchored: true))
    let arm = try a.addItem(width: 160, height: 20, center: Vec2(495, 250), properties: .init(density: 3))
    let weight = try a.addItem(shape: .ellipse, width: 40, height: 40, center: Vec2(560, 280))
    _ = try a.add(ItemGroupBehavior(items: [post, arm, weight]))
    let start = (a.center(arm), a.item(arm)!.angle, a.center(weight))
    a.run(seconds: 5)
    #expect(distance(a.center(arm), start.0) < 1e-6, "the arm moved \(distance(a.center(arm), start.0)) pt")
    #expect(abs(a.item(arm)!.angle - start.1) < 1e-9)
    #expect(distance(a.center(weight), start.2) < 1e-6, "the weight moved \(distance(a.center(weight), start.2)) pt")
    #expect(a.item(weight)!.velocity == .zero)
}
