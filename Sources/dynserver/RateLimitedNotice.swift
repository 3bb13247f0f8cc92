/// Counts repeated events and says when to log them: the first at once, then at most one summary per
/// `intervalMs` carrying how many happened since the last one — so a flood costs a few log lines, not one
/// per event, and none is left uncounted.
struct RateLimitedNotice {
    let intervalMs: UInt64
    private var unreported = 0
    private var lastLogMs: UInt64?

    init(intervalMs: UInt64) { self.intervalMs = intervalMs }

    /// Records `count` events at `nowMs`; returns the number to log now, or nil to stay quiet.
    mutating func note(_ count: Int, nowMs: UInt64) -> Int? {
        unreported += count
        if let last = lastLogMs, nowMs &- last < intervalMs { return nil }
        lastLogMs = nowMs
        defer { unreported = 0 }
        return unreported
    }

    /// The events not reported yet, once `intervalMs` passed since the last report (else nil).
    mutating func flush(nowMs: UInt64) -> Int? {
        guard unreported > 0 else { return nil }
        return note(0, nowMs: nowMs)
    }
}
