import Testing
@testable import Dynamics

/// A busy mixed scene: boxes, circles, ellipses and polygons with friction and elasticity, a push, an
/// attachment, a snap and a named ledge.
private func busyScene() throws -> DynamicAnimator {
    let a = makeWorld()
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.addBoundary(id: "ledge", from: Vec2(100, 350), to: Vec2(450, 420))
    _ = a.add(c)
    let shapes: [ItemShape] = [.rect, .ellipse, .polygon([Vec2(0, -20), Vec2(20, 15), Vec2(-20, 15)])]
    var ids: [ItemID] = []
    for k in 0..<36 {
        let shape = shapes[k % 3]
        let w = k % 4 == 1 ? 50.0 : 36.0
        ids.append(try a.addItem(shape: shape, width: w, height: 36, center: Vec2(80 + Double(k % 12) * 55,
                                 60 + Double(k / 12) * 60), angle: Double(k) * 0.1,
                                 properties: .init(elasticity: Double(k % 3) * 0.3, friction: 0.4)))
    }
    var p = PushBehavior(items: [ids[5]], mode: .instantaneous)
    p.angle = 0.7
    p.magnitude = 3
    p.targetOffsets[ids[5]] = Vec2(10, 5)
    _ = try a.add(p)
    _ = try a.add(AttachmentBehavior.anchored(ids[10], offset: Vec2(5, 0), to: Vec2(600, 60)))
    _ = try a.add(SnapBehavior(item: ids[20], point: Vec2(700, 200)))
    return a
}

@Test(.timeLimit(.minutes(3))) func theSameSceneSteppedTwiceIsBitIdentical() throws {
    let first = try busyScene(), second = try busyScene()
    for _ in 0..<300 {
        first.step()
        second.step()
    }
    #expect(transformHash(first) == transformHash(second))
    var v1: [Double] = [], v2: [Double] = []
    first.forEachItem { _, _, _, v, w in v1 += [v.x, v.y, w] }
    second.forEachItem { _, _, _, v, w in v2 += [v.x, v.y, w] }
    #expect(v1 == v2)
    #expect(first.takeContactEvents() == second.takeContactEvents())
}

@Test(.timeLimit(.minutes(3))) func transformHashAfter600StepsIsPinned() throws {
    let a = try busyScene()
    for _ in 0..<600 { a.step() }
    #expect(transformHash(a) == pinnedHash)
}

/// Changing the engine's arithmetic changes this value; update it deliberately, never to silence a flake.
/// Re-pinned when restitution became rigid passes over all of a bouncing step's contacts together
/// (docs/ENGINE.md, "Restitution") and boundaries got friction 0.2 (mixed as sqrt(f × 0.2), "Materials").
/// Re-pinned when the step's sine and cosine became dyn's own (Core/Trig.swift) instead of libm's, which
/// differ by an ulp here and there and between platforms, and when mass came from the shape's area and
/// polygons turned about their centroid (docs/ENGINE.md, "Mass").
/// Re-pinned when the contacts came to be warm-started and solved colour by colour in SIMD lanes
/// (docs/ARCHITECTURE.md, "The physics step"): the solve order is colour order instead of contact order,
/// which changes the results in their last bits.
/// Re-pinned when contacts became persistent, created and destroyed by the broad phase's pair events
/// (docs/ENGINE.md, "Broad phase"): contacts are solved in awake-contact order (awake bodies ascending, each
/// body's contact list) rather than grid pair order, and exist for overlapping fat boxes.
/// Re-pinned when the solver came to work in Float (32-byte body states, Float constraints in SIMD4<Float>
/// lanes stored colour by colour; docs/ENGINE.md, "Precision") and two-point contacts came to be solved point
/// by point except while both are apart by more than the slop (docs/ENGINE.md, "Contact solver"), and when
/// the joints came to be coloured with the contacts and solved colour by colour before them (Box2D's stage
/// order; drags still first).
/// Re-pinned when a reinserted proxy's fat box came to reach four steps ahead along its body's motion
/// (docs/ENGINE.md, "Broad phase"), and a moving body's box came to be swept along its predicted motion
/// instead of grown by its speed on every side: contacts are created at other steps, so the awake-contact
/// order changes. Re-pinned for joints taking the lowest free colour on their bodies (docs/ENGINE.md,
/// "Contact solver").
/// Re-pinned when contacts whose bodies barely moved relative to each other came to keep their manifold and
/// move its separations on (contact recycling, Engine/ContactRecycling.swift), and when a mostly awake world
/// came to list its awake contacts in id order (PhysicsWorld+Contacts.swift, `buildAwakeContacts`).
/// Re-pinned when the speculative distance became fixed (no longer grown with speed), contacts predicted to
/// pass by came to be skipped, fast bodies came to be stopped at their time of impact (continuous collision)
/// and coincident centres to be pushed apart along a direction from the items' ids (docs/ENGINE.md, "Only
/// touching bodies interact", "Continuous collision", "Every pile separates").
/// Re-pinned when an island with a contact overlapping by more than 3 pt came to leave each step no faster than
/// each body's own motion or the push-out speed (docs/ENGINE.md, "Every pile separates"): this scene's items
/// are created overlapping their neighbours. Re-pinned when a bounce came to be limited to the energy its
/// bodies brought into the step (Engine/BounceEnergy.swift).
private let pinnedHash: UInt64 = 7_713_903_600_969_945_493
