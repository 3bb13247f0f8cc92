import Testing
@testable import Dynamics

/// Engine/PairMap.swift against a Dictionary: inserts and removals in any order (backward-shift deletion
/// must keep every other key findable) and growth.
@Test(.timeLimit(.minutes(3))) func pairMapMatchesADictionaryUnderRandomInsertsAndRemovals() {
    var state: UInt64 = 99
    func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % n
    }
    var map = PairMap()
    var reference: [UInt64: Int32] = [:]
    for step in 0..<20_000 {
        // Few distinct proxies, so that probe runs are long and wrap around.
        let k = PairMap.key(Int32(next(120)), Int32(next(120)))
        if reference[k] == nil && next(3) > 0 {
            map.insert(k, Int32(step))
            reference[k] = Int32(step)
        } else if reference[k] != nil {
            map.remove(k)
            reference[k] = nil
        }
        if step % 1000 == 0 || step > 19_900 {
            #expect(map.count == reference.count)
            for a in 0..<120 {
                for b in a..<120 {
                    let key = PairMap.key(Int32(a), Int32(b))
                    #expect(map.find(key) == (reference[key] ?? -1))
                }
            }
        }
    }
    #expect(map.count > 1000)
}

@Test(.timeLimit(.minutes(3))) func pairMapKeysAreUnordered() {
    #expect(PairMap.key(3, 7) == PairMap.key(7, 3))
    #expect(PairMap.key(3, 7) != PairMap.key(3, 8))
}
