import Testing
@testable import dynserver

/// The pending-request policy of the HTTP port (docs/PROTOCOL.md, HTTP): a cap per peer, a cap for all,
/// and the oldest incomplete request evicted to admit a newcomer.
@Suite(.timeLimit(.minutes(1)))
struct HTTPPendingPoolTests {
    final class Request {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func aFullPeerShareEvictsThatPeersOldestNotAnotherPeers() {
        var pool = HTTPPendingPool<Request>(limit: 10, perPeerLimit: 3, deadlineMs: 5000)
        let other = Request("other")
        #expect(pool.admit(other, peer: "10.0.0.2", nowMs: 0).isEmpty)
        let crowd = (0..<3).map { Request("slow\($0)") }
        for (i, r) in crowd.enumerated() { #expect(pool.admit(r, peer: "10.0.0.1", nowMs: UInt64(i + 1)).isEmpty) }
        let newcomer = Request("new")
        let evicted = pool.admit(newcomer, peer: "10.0.0.1", nowMs: 10)
        #expect(evicted.map(\.name) == ["slow0"])
        #expect(pool.contains(other) && pool.contains(newcomer) && pool.count == 4)
    }

    @Test func aFullPoolEvictsTheOldestOfAll() {
        var pool = HTTPPendingPool<Request>(limit: 4, perPeerLimit: 4, deadlineMs: 5000)
        let all = (0..<4).map { Request("r\($0)") }
        for (i, r) in all.enumerated() { _ = pool.admit(r, peer: "p\(i)", nowMs: UInt64(i)) }
        let evicted = pool.admit(Request("new"), peer: "p9", nowMs: 9)
        #expect(evicted.map(\.name) == ["r0"])
        #expect(pool.count == 4)
        pool.remove(all[2])
        #expect(pool.admit(Request("fits"), peer: "p9", nowMs: 10).isEmpty, "a freed place is used without evicting")
    }

    @Test func expiredListsExactlyTheRequestsPastTheDeadline() {
        var pool = HTTPPendingPool<Request>(limit: 8, perPeerLimit: 8, deadlineMs: 100)
        let old = Request("old"), young = Request("young")
        _ = pool.admit(old, peer: "p", nowMs: 0)
        _ = pool.admit(young, peer: "p", nowMs: 90)
        #expect(pool.expired(nowMs: 100).isEmpty)
        #expect(pool.expired(nowMs: 101).map(\.name) == ["old"])
    }

    @Test func evictionNoticesAreRateLimitedButCountEveryEvent() {
        var notice = RateLimitedNotice(intervalMs: 1000)
        #expect(notice.note(1, nowMs: 0) == 1)
        #expect(notice.note(5, nowMs: 10) == nil)
        #expect(notice.flush(nowMs: 500) == nil)
        #expect(notice.note(2, nowMs: 1001) == 7)
        #expect(notice.flush(nowMs: 5000) == nil, "nothing left to report")
    }
}
