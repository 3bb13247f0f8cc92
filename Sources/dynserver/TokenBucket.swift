/// The per-client command rate limit: `rate` tokens per second, holding at most `burst`.
///
/// Guarantees: starts full; `take` never lets more than `burst + rate × elapsed` commands through in any
/// window; time only moves forward (a clock that goes back is treated as no time passing).
struct TokenBucket {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var lastNs: UInt64

    init(rate: Double, burst: Double, nowNs: UInt64) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.lastNs = nowNs
    }

    mutating func take(nowNs: UInt64) -> Bool {
        refill(nowNs: nowNs)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Gives back one token taken earlier for a line that is handled later (a line held while a join waited).
    mutating func refund() { tokens = min(burst, tokens + 1) }

    /// True when a `take` now would succeed (nothing is taken).
    mutating func hasToken(nowNs: UInt64) -> Bool {
        refill(nowNs: nowNs)
        return tokens >= 1
    }

    /// True when the bucket has refilled completely: the client kept under its rate for a while.
    mutating func isFull(nowNs: UInt64) -> Bool {
        refill(nowNs: nowNs)
        return tokens >= burst
    }

    private mutating func refill(nowNs: UInt64) {
        if nowNs > lastNs {
            tokens = min(burst, tokens + Double(nowNs - lastNs) * 1e-9 * rate)
            lastNs = nowNs
        }
    }
}
