import Testing
@testable import Dynamics

/// Two boxes flying at each other along y = 300 and one flying down through the bottom bound.
private func run(mode: CollisionMode) throws -> (leftX: Double, rightX: Double, fallerY: Double) {
    let a = DynamicAnimator(width: 800, height: 600)
    _ = a.add(CollisionBehavior(mode: mode))
    let left = try a.addItem(width: 50, height: 50, center: Vec2(200, 300), velocity: Vec2(300, 0))
    let right = try a.addItem(width: 50, height: 50, center: Vec2(600, 300), velocity: Vec2(-300, 0))
    let faller = try a.addItem(width: 50, height: 50, center: Vec2(100, 500), velocity: Vec2(0, 400))
    a.run(seconds: 2)
    return (a.center(left).x, a.center(right).x, a.center(faller).y)
}

@Test(.timeLimit(.minutes(3))) func itemsModeCollidesItemsButPassesThroughBoundaries() throws {
    let r = try run(mode: .items)
    #expect(r.leftX < r.rightX)
    #expect(r.fallerY > 1000)
}

@Test(.timeLimit(.minutes(3))) func boundariesModePassesItemsThroughEachOtherButNotTheBounds() throws {
    let r = try run(mode: .boundaries)
    #expect(r.leftX > r.rightX)
    #expect(r.leftX <= 775.5 && r.rightX >= 24.5)
    #expect(r.fallerY <= 575.5)
}

@Test(.timeLimit(.minutes(3))) func everythingModeCollidesBoth() throws {
    let r = try run(mode: .everything)
    #expect(r.leftX < r.rightX)
    #expect(r.fallerY <= 575.5)
}

@Test(.timeLimit(.minutes(3))) func itemsOutsideTheCollisionSelectionPassThrough() throws {
    let a = makeWorld(gravity: true, collision: false)
    let ghost = try a.addItem(width: 40, height: 40, center: Vec2(200, 100))
    let solid = try a.addItem(width: 40, height: 40, center: Vec2(400, 100))
    _ = a.add(CollisionBehavior(items: .only([solid])))
    a.run(seconds: 2)
    #expect(a.center(ghost).y > 600)
    #expect(abs(a.center(solid).y - 580) < 1)
}
