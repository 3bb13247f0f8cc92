/// A client's read side under backpressure (docs/PROTOCOL.md, rate limit): bytes already read but not yet
/// handled because its token bucket ran dry, and whether the server stopped reading from it.
///
/// Guarantees: lines are handled in the order they arrived, none is dropped; while `paused`, no more bytes
/// are read from the socket (the kernel's buffers and then TCP flow control hold the client back); `warned`
/// makes a burst over the rate cost one `rate_limited` error, not one per line.
struct ReadThrottle {
    /// Read bytes not handled yet; handling resumes at `inboxStart`.
    private(set) var inbox: [UInt8] = []
    private var inboxStart = 0
    /// WebSocket text messages read but not handled yet, oldest first (a WebSocket's messages are whole, so
    /// they wait as messages rather than as bytes to re-frame).
    private(set) var messages: [[UInt8]] = []
    private var messagesStart = 0
    /// Reading from the socket is stopped.
    var paused = false
    /// The client has been told it is over its rate in the current burst.
    var warned = false

    var hasInbox: Bool { inboxStart < inbox.count || messagesStart < messages.count }

    mutating func stashMessage(_ message: [UInt8]) {
        if messagesStart > 0, messagesStart * 2 >= messages.count {
            messages.removeSubrange(0..<messagesStart)
            messagesStart = 0
        }
        messages.append(message)
    }

    /// The oldest waiting message, removed.
    mutating func takeMessage() -> [UInt8]? {
        guard messagesStart < messages.count else { return nil }
        defer {
            messagesStart += 1
            if messagesStart == messages.count { messages.removeAll(keepingCapacity: true); messagesStart = 0 }
        }
        return messages[messagesStart]
    }

    mutating func stash(_ bytes: UnsafeRawBufferPointer) {
        if inboxStart > 0, inboxStart * 2 >= inbox.count {
            inbox.removeSubrange(0..<inboxStart)
            inboxStart = 0
        }
        inbox.append(contentsOf: bytes)
    }

    /// Takes the whole inbox out, to be handled (what is not handled goes back with `stash`).
    mutating func takeInbox() -> [UInt8] {
        let bytes = inboxStart == 0 ? inbox : Array(inbox[inboxStart...])
        inbox.removeAll(keepingCapacity: bytes.count < 64 * 1024)
        inboxStart = 0
        return bytes
    }
}
