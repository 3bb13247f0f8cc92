import Testing
@testable import dynserver

@Suite struct TokenBucketTests {
    @Test(.timeLimit(.minutes(3))) func startsFullAndAllowsExactlyTheBurst() {
        var bucket = TokenBucket(rate: 120, burst: 240, nowNs: 0)
        var allowed = 0
        for _ in 0..<1000 where bucket.take(nowNs: 0) { allowed += 1 }
        #expect(allowed == 240)
    }

    @Test(.timeLimit(.minutes(3))) func refillsAtTheRate() {
        var bucket = TokenBucket(rate: 120, burst: 240, nowNs: 0)
        for _ in 0..<240 { _ = bucket.take(nowNs: 0) }
        let refused = bucket.take(nowNs: 0)
        #expect(!refused)
        var allowed = 0
        for _ in 0..<1000 where bucket.take(nowNs: 500_000_000) { allowed += 1 }   // half a second later
        #expect(allowed == 60)
    }

    @Test(.timeLimit(.minutes(3))) func neverHoldsMoreThanTheBurst() {
        var bucket = TokenBucket(rate: 120, burst: 10, nowNs: 0)
        var allowed = 0
        for _ in 0..<100 where bucket.take(nowNs: 60_000_000_000) { allowed += 1 }
        #expect(allowed == 10)
    }

    @Test(.timeLimit(.minutes(3))) func clockGoingBackwardsAddsNothing() {
        var bucket = TokenBucket(rate: 1000, burst: 1, nowNs: 5_000_000_000)
        let first = bucket.take(nowNs: 5_000_000_000)
        let second = bucket.take(nowNs: 1_000_000_000)
        #expect(first)
        #expect(!second)
    }
}
