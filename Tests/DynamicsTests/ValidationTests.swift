import Testing
@testable import Dynamics

private func isInvalid(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return false
    } catch {
        if case .invalidValue? = error as? DynamicsError { return true }
        return false
    }
}

@Test(.timeLimit(.minutes(3))) func addItemRejectsNonFiniteAndOutOfRangeInput() {
    let a = makeWorld()
    let bad: [() throws -> Void] = [
        { _ = try a.addItem(width: .nan, height: 10, center: .zero) },
        { _ = try a.addItem(width: 0, height: 10, center: .zero) },
        { _ = try a.addItem(width: 10, height: -1, center: .zero) },
        { _ = try a.addItem(width: 10, height: 10, center: Vec2(.infinity, 0)) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, angle: .nan) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, velocity: Vec2(0, .infinity)) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, properties: .init(elasticity: 1.5)) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, properties: .init(friction: -0.1)) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, properties: .init(density: 0)) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, properties: .init(resistance: -1)) },
        { _ = try a.addItem(width: 10, height: 10, center: .zero, properties: .init(angularResistance: .nan)) },
        { _ = try a.addItem(shape: .polygon([Vec2(0, 0), Vec2(10, 0)]), width: 10, height: 10, center: .zero) },
        { _ = try a.addItem(shape: .polygon([Vec2(0, 0), Vec2(10, 0), Vec2(20, 0)]), width: 10, height: 10,
                            center: .zero) },
        { _ = try a.addItem(shape: .polygon([Vec2(0, 0), Vec2(10, 0), Vec2(2, 2), Vec2(0, 10)]), width: 10,
                            height: 10, center: .zero) },
    ]
    for (k, b) in bad.enumerated() { #expect(isInvalid(b), "case \(k)") }
    #expect(a.itemCount == 0)
}

@Test(.timeLimit(.minutes(3))) func behaviorsRejectInvalidValuesAndUnknownIDs() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 10, height: 10, center: Vec2(100, 100))
    #expect(isInvalid { _ = try a.add(SnapBehavior(item: id, point: .zero, damping: 1.5)) })
    #expect(isInvalid { _ = try a.add(AttachmentBehavior(item: id)) })
    #expect(isInvalid { _ = try a.add(AttachmentBehavior(item: id, anchor: .zero, otherItem: id)) })
    var spring = AttachmentBehavior.anchored(id, to: .zero)
    spring.damping = -0.5
    #expect(isInvalid { _ = try a.add(spring) })
    var push = PushBehavior(items: [id], mode: .continuous)
    push.magnitude = .infinity
    #expect(isInvalid { _ = try a.add(push) })
    #expect(isInvalid { try a.setProperties(id, .init(density: .infinity)) })
    #expect(isInvalid { try a.addLinearVelocity(Vec2(.nan, 0), to: id) })
    #expect(throws: DynamicsError.unknownItem(99)) { _ = try a.add(SnapBehavior(item: 99, point: .zero)) }
    #expect(throws: DynamicsError.unknownBehavior(42)) { try a.update(42, GravityBehavior()) }
    let gravity = a.add(GravityBehavior())
    #expect(throws: DynamicsError.unknownBehavior(gravity)) { try a.update(gravity, CollisionBehavior()) }
    #expect(isInvalid { try a.update(gravity, GravityBehavior(direction: Vec2(.nan, 1))) })
    var c = CollisionBehavior()
    c.addBoundary(id: "bad", points: [Vec2(0, 0)], closed: false)
    let cid = a.add(c)
    #expect(a.collision(cid)!.boundaries.isEmpty)
    #expect(isInvalid { try a.update(cid, c) })
}
