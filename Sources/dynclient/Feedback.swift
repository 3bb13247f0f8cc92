import NetProtocol

/// What the client shows for a while after something happened: the answer to the last command, the ring
/// where a tap landed, the item a tap pushed, notices of what other people did, contact flashes. Pure: the
/// caller passes the time.
///
/// Guarantees: an error stays until the next command is sent (`commandSent()`) or a new connection is in
/// (`connectionRestored()`), a success for `okMs`;
/// a ring and a highlight last `ringMs`, a notice `noticeMs` (at most `maxNotices`, newest last), a contact
/// flash `flashMs` (at most `maxFlashes`); `expire(atMs:)` drops what is over and nothing else.
struct Feedback: Sendable {
    struct Result: Equatable, Sendable {
        var text: String
        var isError: Bool
        /// nil: until the next command.
        var untilMs: UInt64?
    }

    private(set) var result: Result?
    private(set) var ring: (point: Point, untilMs: UInt64)?
    private(set) var highlight: (body: Int, untilMs: UInt64)?
    private(set) var notices: [(text: String, untilMs: UInt64)] = []
    private(set) var flashes: [(point: Point, untilMs: UInt64)] = []

    static let okMs: UInt64 = 2500
    static let ringMs: UInt64 = 700
    static let noticeMs: UInt64 = 5000
    static let flashMs: UInt64 = 250
    static let maxNotices = 4
    static let maxFlashes = 64

    mutating func commandSent() {
        if result?.isError == true || result?.untilMs == nil { result = nil }
    }

    /// A new connection is in: what the last one ended with (`server said bye`, a refused command) no longer
    /// holds, so the message bar goes back to the hints.
    mutating func connectionRestored() {
        result = nil
    }

    /// Another room: its notices, ring, highlight and flashes were about the room left, so they go (the
    /// answer in the message bar stays: it says the join happened).
    mutating func roomChanged() {
        notices.removeAll()
        ring = nil
        highlight = nil
        flashes.removeAll()
    }

    mutating func succeeded(_ text: String, atMs now: UInt64) {
        result = Result(text: text, isError: false, untilMs: now + Self.okMs)
    }

    mutating func failed(_ text: String) {
        result = Result(text: text, isError: true, untilMs: nil)
    }

    mutating func tapLanded(at point: Point, pushed body: Int?, atMs now: UInt64) {
        ring = (point, now + Self.ringMs)
        if let body { highlight = (body, now + Self.ringMs) }
    }

    mutating func notice(_ text: String, atMs now: UInt64) {
        notices.append((text, now + Self.noticeMs))
        if notices.count > Self.maxNotices { notices.removeFirst(notices.count - Self.maxNotices) }
    }

    mutating func contact(at point: Point, atMs now: UInt64) {
        flashes.append((point, now + Self.flashMs))
        if flashes.count > Self.maxFlashes { flashes.removeFirst(flashes.count - Self.maxFlashes) }
    }

    mutating func expire(atMs now: UInt64) {
        if let until = result?.untilMs, now >= until { result = nil }
        if let ring, now >= ring.untilMs { self.ring = nil }
        if let highlight, now >= highlight.untilMs { self.highlight = nil }
        notices.removeAll { now >= $0.untilMs }
        flashes.removeAll { now >= $0.untilMs }
    }
}
