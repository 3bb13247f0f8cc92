import Testing
@testable import Dynamics

/// `DynamicAnimator.stateHash()` and `checkpoint()`/`restore(_:)` (docs/PROTOCOL.md, "hash" and
/// "checkpoint / restore"): the hash follows the state exactly, and a restore is exact to the bit.
@Suite struct StateHashTests {
    /// A pile in contact (warm-start impulses matter), a push, a rope to an anchor and a sliding joint.
    private func pile() throws -> (DynamicAnimator, [ItemID]) {
        let a = makeWorld()
        var ids: [ItemID] = []
        for k in 0..<24 {
            ids.append(try a.addItem(shape: k % 2 == 0 ? .rect : .ellipse, width: 40, height: 30,
                                     center: Vec2(200 + Double(k % 6) * 42, 400 + Double(k / 6) * 34),
                                     properties: .init(elasticity: 0.2, friction: 0.5)))
        }
        var push = PushBehavior(items: [ids[3]], mode: .continuous)
        push.angle = -1.2
        push.magnitude = 2
        _ = try a.add(push)
        var rope = AttachmentBehavior.anchored(ids[20], offset: .zero, to: Vec2(300, 200))
        rope.kind = .limit
        _ = try a.add(rope)
        _ = try a.add(SlidingAttachmentBehavior(item: ids[7], otherItem: ids[8], anchor: nil, axis: Vec2(1, 0), range: -20...20))
        return (a, ids)
    }

    @Test(.timeLimit(.minutes(1))) func equalStatesHashEqualAndEveryKindOfChangeShows() throws {
        let (a, ids) = try pile()
        let (b, _) = try pile()
        #expect(a.stateHash() == b.stateHash())
        for _ in 0..<40 { a.step(); b.step() }
        #expect(a.stateHash() == b.stateHash(), "the same steps give the same hash")
        let settled = a.stateHash()
        #expect(a.stateHash() == settled, "hashing changes nothing")

        try b.setProperties(ids[0], .init(elasticity: 0.2, friction: 0.5000000000000001))
        #expect(b.stateHash() != settled, "one ulp of one property")
        let (c, _) = try pile()
        for _ in 0..<41 { c.step() }
        #expect(c.stateHash() != settled, "one more step")
        let (d, dIDs) = try pile()
        for _ in 0..<40 { d.step() }
        try d.addLinearVelocity(Vec2(1e-9, 0), to: dIDs[1])
        #expect(d.stateHash() != settled, "a velocity nudge")
    }

    @Test(.timeLimit(.minutes(1))) func restoreIsExactAndTheSameStepsGiveTheSameHashesAgain() throws {
        let (a, ids) = try pile()
        for _ in 0..<30 { a.step() }
        let saved = a.checkpoint()
        let atCheckpoint = a.stateHash()
        var first: [UInt64] = []
        for k in 0..<60 {
            if k == 10 { _ = try a.addItem(shape: .rect, width: 20, height: 20, center: Vec2(500, 100)) }
            if k == 20 { _ = a.removeItem(ids[2]) }
            a.step()
            first.append(a.stateHash())
        }
        a.restore(saved)
        #expect(a.stateHash() == atCheckpoint)
        var again: [UInt64] = []
        var spawned: ItemID = 0
        for k in 0..<60 {
            if k == 10 { spawned = try a.addItem(shape: .rect, width: 20, height: 20, center: Vec2(500, 100)) }
            if k == 20 { _ = a.removeItem(ids[2]) }
            a.step()
            again.append(a.stateHash())
        }
        #expect(again == first)
        #expect(spawned == ids.last! + 1, "the id counter came back too")
    }

    @Test(.timeLimit(.minutes(1))) func theHasherIsFNV1aByWordsWithAXorShift() {
        var h = StateHasher()
        #expect(h.value == 0xcbf2_9ce4_8422_2325)
        h.mix(UInt64(0))
        // (basis ^ 0) * prime, then x ^= x >> 32, worked out by hand.
        var expected: UInt64 = 0xcbf2_9ce4_8422_2325 &* 0x0000_0100_0000_01b3
        expected ^= expected >> 32
        #expect(h.value == expected)
        var high = StateHasher(), low = StateHasher()
        high.mix(UInt64(1) << 63)
        low.mix(UInt64(0))
        #expect(high.value & 0xffff_ffff != low.value & 0xffff_ffff, "a word's top bit reaches the low bits")
        #expect(StateHasher.hex(0xab) == "00000000000000ab")
        var p = StateHasher(), n = StateHasher()
        p.mix(0.0)
        n.mix(-0.0)
        #expect(p.value != n.value, "bit patterns, not numeric equality")
    }
}
