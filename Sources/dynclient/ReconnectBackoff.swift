/// Exponential backoff for reconnecting: 250 ms, 500 ms, 1 s, 2 s, 4 s, then 5 s for every later attempt.
///
/// Guarantees: delays double from `initialMs` and never exceed `maxMs`; `reset()` (after a connection that
/// got its `welcome`) starts again from `initialMs`; `attempt` counts the delays handed out since then.
struct ReconnectBackoff: Sendable {
    let initialMs: UInt64
    let maxMs: UInt64
    private(set) var attempt = 0

    init(initialMs: UInt64 = 250, maxMs: UInt64 = 5000) {
        self.initialMs = max(initialMs, 1)
        self.maxMs = max(maxMs, self.initialMs)
    }

    mutating func nextDelayMs() -> UInt64 {
        let doublings = min(attempt, 32)
        attempt += 1
        let delay = initialMs << UInt64(doublings)
        return delay >= maxMs || delay >> UInt64(doublings) != initialMs ? maxMs : delay
    }

    mutating func reset() { attempt = 0 }
}
