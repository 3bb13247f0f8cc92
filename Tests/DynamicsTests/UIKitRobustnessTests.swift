import Testing
@testable import Dynamics

/// Fields, joint attachments and groups at their extremes never make a position or velocity non-finite, and
/// items stay inside the bounds (docs/UIKIT.md).
private func extremeWorld() throws -> (DynamicAnimator, [ItemID]) {
    let a = makeWorld()
    var ids: [ItemID] = []
    for k in 0..<12 {
        ids.append(try a.addItem(shape: k % 3 == 0 ? .ellipse : .rect, width: 20 + Double(k) * 3, height: 30,
                                 center: Vec2(80 + Double(k) * 55, 300 + Double(k % 4) * 40),
                                 properties: ItemProperties(density: k == 5 ? 1e-3 : 1, charge: Double(k - 6) * 1e6)))
    }
    return (a, ids)
}

private func expectFiniteAndInside(_ a: DynamicAnimator, seconds: Double) {
    var bad = 0
    a.run(seconds: seconds) {
        a.forEachItem { _, center, angle, velocity, w in
            if !(center.isFinite && angle.isFinite && velocity.isFinite && w.isFinite) { bad += 1 }
        }
    }
    #expect(bad == 0, "non-finite states: \(bad)")
    a.forEachItem { id, center, _, _, _ in
        #expect(center.x > -50 && center.x < 850 && center.y > -50 && center.y < 650, "item \(id) at \(center)")
    }
}

@Test(.timeLimit(.minutes(3)), arguments: FieldKind.allCases)
func anExtremeFieldStaysFiniteAndInside(_ kind: FieldKind) throws {
    let (a, _) = try extremeWorld()
    var f = FieldBehavior(kind: kind, position: Vec2(400, 300), strength: kind == .drag ? 1e6 : 1e8)
    f.falloff = 16
    f.direction = Vec2(1e6, -1e6)
    f.animationSpeed = 1e6
    _ = try a.add(f)
    expectFiniteAndInside(a, seconds: 2)
}

@Test(.timeLimit(.minutes(3))) func extremeJointAttachmentsAndGroupsStayFiniteAndInside() throws {
    let (a, ids) = try extremeWorld()
    #expect(throws: DynamicsError.self) { try a.add(FixedAttachmentBehavior(item: ids[0], anchor: Vec2(1e9, -1e9))) }
    let weld = try a.add(FixedAttachmentBehavior(item: ids[0], anchor: Vec2(7e3, -6.7e3)))
    _ = try a.add(SlidingAttachmentBehavior(item: ids[1], otherItem: ids[2], axis: Vec2(1e-300, 1), range: -1e9...1e9))
    #expect(throws: DynamicsError.self) { try a.add(PinAttachmentBehavior(item: ids[3], point: Vec2(-1e9, 1e9))) }
    _ = try a.add(PinAttachmentBehavior(item: ids[3], otherItem: ids[4], point: Vec2(-6e3, 6e3), range: 0...0,
                                        frictionTorque: 1e12))
    _ = try a.add(ItemGroupBehavior(items: Array(ids[6...9])))
    expectFiniteAndInside(a, seconds: 1)
    try a.moveJointAnchor(weld, to: Vec2(-1e9, 1e9))
    expectFiniteAndInside(a, seconds: 1)
}
