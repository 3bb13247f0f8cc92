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

private func pairKey(_ a: Int32, _ b: Int32) -> Int { Int(min(a, b)) << 32 | Int(max(a, b)) }

private func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> AABB {
    AABB(minX: x, minY: y, maxX: x + w, maxY: y + h)
}

@Test(.timeLimit(.minutes(3))) func treeQueriesAndPairUpdatesMatchBruteForce() {
    var rng = LCG(state: 42)
    var phase = BroadPhase()
    var keys: [Int32] = []
    for k in 0..<400 {
        keys.append(phase.createProxy(box(rng.next() * 1000, rng.next() * 1000, 5 + rng.next() * 40, 5 + rng.next() * 40),
                                      owner: Int32(k), isStatic: false))
    }
    // Every pair at creation: all proxies moved.
    var pairs: [ProxyPair] = []
    phase.findPairs(into: &pairs)
    var reported = Set(pairs.map { Int($0.a) << 32 | Int($0.b) })
    #expect(reported.count == pairs.count, "a pair reported twice")
    var expected = Set<Int>()
    for i in 0..<keys.count {
        for j in (i + 1)..<keys.count where phase.fatBox(keys[i]).overlaps(phase.fatBox(keys[j])) {
            expected.insert(Int(min(keys[i], keys[j])) << 32 | Int(max(keys[i], keys[j])))
        }
    }
    #expect(reported == expected)
    #expect(!expected.isEmpty)

    // Move a third of them; the new pairs reported are exactly the overlaps involving a moved proxy.
    var moved = Set<Int32>()
    for k in stride(from: 0, to: keys.count, by: 3) {
        let before = phase.fatBox(keys[k])
        phase.moveProxy(keys[k], box(rng.next() * 1000, rng.next() * 1000, 20, 20))
        let after = phase.fatBox(keys[k])
        if before.minX != after.minX || before.minY != after.minY { moved.insert(keys[k]) }
    }
    #expect(phase.moveBuffer.count == moved.count)
    phase.findPairs(into: &pairs)
    reported = Set(pairs.map { Int($0.a) << 32 | Int($0.b) })
    #expect(reported.count == pairs.count, "a pair reported twice")
    expected.removeAll()
    for i in 0..<keys.count {
        for j in (i + 1)..<keys.count where (moved.contains(keys[i]) || moved.contains(keys[j]))
            && phase.fatBox(keys[i]).overlaps(phase.fatBox(keys[j])) {
            expected.insert(Int(min(keys[i], keys[j])) << 32 | Int(max(keys[i], keys[j])))
        }
    }
    #expect(reported == expected)
}

@Test(.timeLimit(.minutes(3))) func treeQueriesFindExactlyTheOverlappingFatBoxes() {
    var rng = LCG(state: 7)
    var tree = DynamicTree(margin: 2)
    var ids: [Int32] = []
    for k in 0..<400 {
        ids.append(tree.createProxy(box(rng.next() * 1000, rng.next() * 1000, 5 + rng.next() * 40, 5 + rng.next() * 40),
                                    userData: Int32(k)))
    }
    for k in stride(from: 0, to: ids.count, by: 3) { tree.moveProxy(ids[k], box(rng.next() * 1000, rng.next() * 1000, 20, 20)) }
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
    #expect(tree.proxyCount == kept.count)
}

@Test(.timeLimit(.minutes(3))) func aThousandProxiesAtOnePointPairUpCompletely() {
    var phase = BroadPhase()
    for k in 0..<1000 { _ = phase.createProxy(box(400, 300, 20, 20), owner: Int32(k), isStatic: false) }
    var pairs: [ProxyPair] = []
    phase.findPairs(into: &pairs)
    let distinct = Set(pairs.map { pairKey($0.a, $0.b) }).count
    #expect(pairs.count == 499_500)
    #expect(distinct == 499_500)
}

@Test(.timeLimit(.minutes(3))) func aSmallMoveInsideTheFatBoxIsNotAMove() {
    var tree = DynamicTree(margin: 4)
    let id = tree.createProxy(box(0, 0, 10, 10), userData: 0)
    #expect(tree.moveProxy(id, box(2, 2, 10, 10)) == false)
    #expect(tree.moveProxy(id, box(10, 0, 10, 10)) == true)
}

/// A static proxy pairs with movable ones only, and a pair whose two proxies both moved is reported once.
@Test(.timeLimit(.minutes(3))) func staticProxiesPairOnlyWithMovableOnes() {
    var phase = BroadPhase()
    let s1 = phase.createProxy(box(0, 0, 10, 10), owner: -1, isStatic: true)
    let s2 = phase.createProxy(box(5, 5, 10, 10), owner: -2, isStatic: true)
    let m = phase.createProxy(box(5, 0, 10, 10), owner: 0, isStatic: false)
    var pairs: [ProxyPair] = []
    phase.findPairs(into: &pairs)
    let found: Set<Int> = Set(pairs.map { pairKey($0.a, $0.b) })
    let expected: Set<Int> = [pairKey(s1, m), pairKey(s2, m)]
    #expect(pairs.count == 2)
    #expect(found == expected)
    phase.findPairs(into: &pairs)
    #expect(pairs.isEmpty, "nothing moved")
}

/// A reinserted fat box reaches four steps of motion ahead (and only ahead), so a proxy moving steadily at
/// 5 pt per step is reinserted once every few steps instead of every other step.
@Test(.timeLimit(.minutes(3))) func aReinsertedFatBoxReachesAheadAlongTheMotion() {
    var tree = DynamicTree(margin: 10)
    let id = tree.createProxy(box(0, 0, 10, 10), userData: 0)
    let reinserted = tree.moveProxy(id, box(15, 0, 10, 10), displacement: Vec2(5, 0))
    #expect(reinserted)
    let fat = tree.fatBox(id)
    #expect(fat.minX == 5 && fat.maxX == 25 + 10 + 4 * 5)
    #expect(fat.minY == -10 && fat.maxY == 20)
    var reinserts = 0
    for k in 1...20 where tree.moveProxy(id, box(15 + 5 * Double(k), 0, 10, 10), displacement: Vec2(5, 0)) {
        reinserts += 1
    }
    // Each reinsertion leaves margin + 4 steps = 30 pt ahead of the box: the next one comes 7 steps later
    // (steps 7 and 14), where the margin alone would reinsert every 3rd step.
    #expect(reinserts == 2)
}
