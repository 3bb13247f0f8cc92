import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Broad phase": no overlapping pair is ever dropped, however many items pile up.
@Test func everyPairOfAThousandBoxesAtOnePointIsFound() {
    let n = 1000
    let boxes = [AABB](repeating: AABB(minX: 390, minY: 290, maxX: 410, maxY: 310), count: n)
    let active = [Bool](repeating: true, count: n)
    var phase = BroadPhase()
    phase.cellSize = 22
    var pairs: [ProxyPair] = []
    boxes.withUnsafeBufferPointer { b in active.withUnsafeBufferPointer { phase.findPairs(b, active: $0, into: &pairs) } }
    #expect(pairs.count == n * (n - 1) / 2)
    var seen = Set<Int>()
    for p in pairs where p.a < p.b { seen.insert(Int(p.a) * n + Int(p.b)) }
    #expect(seen.count == n * (n - 1) / 2)
}

@Test func everyPairOfAPileOfItemsGetsAContactInTheWorld() throws {
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
