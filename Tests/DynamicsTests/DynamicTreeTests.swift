import Testing
@testable import Dynamics

/// Engine/DynamicTree.swift against brute force: queries and pair updates never miss an overlap.
private struct LCG {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

private func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> AABB {
    AABB(minX: x, minY: y, maxX: x + w, maxY: y + h)
}

@Test func treeQueriesAndPairUpdatesMatchBruteForce() {
    var rng = LCG(state: 42)
    var tree = DynamicTree(margin: 2)
    var ids: [Int32] = []
    for k in 0..<400 {
        ids.append(tree.createProxy(box(rng.next() * 1000, rng.next() * 1000, 5 + rng.next() * 40, 5 + rng.next() * 40),
                                    userData: Int32(k)))
    }
    // Every pair at creation: all proxies moved.
    var reported = Set<Int>()
    tree.updatePairs { a, b in reported.insert(Int(a) << 32 | Int(b)) }
    var expected = Set<Int>()
    for i in 0..<ids.count {
        for j in (i + 1)..<ids.count where tree.fatBox(ids[i]).overlaps(tree.fatBox(ids[j])) {
            expected.insert(Int(min(ids[i], ids[j])) << 32 | Int(max(ids[i], ids[j])))
        }
    }
    #expect(reported == expected)
    #expect(!expected.isEmpty)

    // Move a third of them; the new pairs reported are exactly the overlaps involving a moved proxy.
    var moved = Set<Int32>()
    for k in stride(from: 0, to: ids.count, by: 3) {
        if tree.moveProxy(ids[k], box(rng.next() * 1000, rng.next() * 1000, 20, 20)) { moved.insert(ids[k]) }
    }
    reported.removeAll()
    tree.updatePairs { a, b in reported.insert(Int(a) << 32 | Int(b)) }
    expected.removeAll()
    for i in 0..<ids.count {
        for j in (i + 1)..<ids.count where (moved.contains(ids[i]) || moved.contains(ids[j]))
            && tree.fatBox(ids[i]).overlaps(tree.fatBox(ids[j])) {
            expected.insert(Int(min(ids[i], ids[j])) << 32 | Int(max(ids[i], ids[j])))
        }
    }
    #expect(reported == expected)

    // A query finds exactly the overlapping fat boxes; the tree stays balanced.
    let probe = box(300, 300, 200, 200)
    var found = Set<Int32>()
    tree.query(probe) { found.insert($0) }
    #expect(found == Set(ids.filter { tree.fatBox($0).overlaps(probe) }))
    #expect(tree.height <= 20, "height \(tree.height) for 400 proxies")

    // Destroying proxies keeps the rest findable.
    for k in stride(from: 1, to: ids.count, by: 2) { tree.destroyProxy(ids[k]) }
    let kept = ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    found.removeAll()
    tree.query(box(-100, -100, 1200, 1200)) { found.insert($0) }
    #expect(found == Set(kept))
}

@Test func aThousandProxiesAtOnePointPairUpCompletely() {
    var tree = DynamicTree()
    for k in 0..<1000 { _ = tree.createProxy(box(400, 300, 20, 20), userData: Int32(k)) }
    var count = 0
    tree.updatePairs { _, _ in count += 1 }
    #expect(count == 1000 * 999 / 2)
}

@Test func aSmallMoveInsideTheFatBoxIsNotAMove() {
    var tree = DynamicTree(margin: 4)
    let id = tree.createProxy(box(0, 0, 10, 10), userData: 0)
    tree.updatePairs { _, _ in }
    #expect(tree.moveProxy(id, box(2, 2, 10, 10)) == false)
    #expect(tree.moveProxy(id, box(10, 0, 10, 10)) == true)
}
