import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Broad phase": no overlapping pair is ever dropped, however many items pile up.
@Test(.timeLimit(.minutes(3))) func everyPairOfAPileOfItemsGetsAContactInTheWorld() throws {
    let a = makeWorld(gravity: false, collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.mode = .items
    _ = a.add(c)
    let n = 200
    for _ in 0..<n { _ = try a.addItem(width: 20, height: 20, center: Vec2(400, 300)) }
    a.step()
    let itemContacts = a.world.contacts.filter { $0.bodyB >= 0 && $0.pointCount > 0 }
    #expect(itemContacts.count == n * (n - 1) / 2)
}
