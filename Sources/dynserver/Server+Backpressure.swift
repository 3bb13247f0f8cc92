#if canImport(Glibc)
import Glibc
#endif
import NetProtocol
import NetLoop

/// Read backpressure (docs/PROTOCOL.md, rate limit): a client is read only as fast as its token bucket
/// allows and only while its unsent output is small; otherwise the server stops reading from it
/// (`uv_read_stop`) and lets the kernel's buffers and TCP flow control hold it back.
///
/// Guarantees: every line is handled in arrival order, none is dropped for the rate; a burst over the rate
/// costs the client one `rate_limited` error (no `id`: it answers no command), not one per line, so a
/// flooder never receives more than it sends; a client that is only slow to read is paused, never dropped
/// for it (only `--stall-timeout` and `--max-outbox-bytes` drop a client).
extension Server {
    /// Unsent output above which reading from a client stops.
    var readPauseHighBytes: Int { max(256 * 1024, config.maxOutboxBytes / 8) }
    /// Unsent output below which reading resumes.
    var readPauseLowBytes: Int { readPauseHighBytes / 4 }

    /// Bytes from the socket: handled at once unless earlier ones still wait for the bucket.
    func received(_ bytes: UnsafeRawBufferPointer, from session: ClientSession) {
        guard !session.closing else { return }
        if session.throttle.hasInbox {
            session.throttle.stash(bytes)
        } else {
            consume(bytes, from: session)
        }
        finishRead(session)
    }

    /// Frames and handles lines while the client's bucket has tokens; the rest waits in its inbox.
    private func consume(_ bytes: UnsafeRawBufferPointer, from session: ClientSession) {
        guard let base = bytes.baseAddress else { return }
        let limit = config.maxLineBytes
        var position = 0
        while position < bytes.count, !session.closing {
            let rest = bytes.count - position
            let newline = memchr(base + position, 0x0A, rest)
            let end = newline.map { UnsafeRawPointer($0) - base + 1 } ?? bytes.count
            if newline != nil {
                let now = EventLoop.hrtimeNs
                if session.throttle.warned, session.bucket.isFull(nowNs: now) { session.throttle.warned = false }
                guard session.bucket.hasToken(nowNs: now) else {
                    session.throttle.stash(UnsafeRawBufferPointer(start: base + position, count: rest))
                    overRate(session)
                    return
                }
            }
            session.framer.feed(UnsafeRawBufferPointer(start: base + position, count: end - position)) { event in
                switch event {
                case .line(let line):
                    handleLine(line, from: session)
                case .tooLong:
                    session.reply(.error(ProtocolError(.lineTooLong, "line longer than \(limit) bytes discarded")))
                }
            }
            position = end
        }
    }

    /// The end of one pass over a client's input (a read, or a WebSocket's messages): scenes first (acks never
    /// precede their scene), then its replies in one write, then a pause if its output backs up.
    func finishRead(_ session: ClientSession) {
        // Structure changed by this batch goes out before the replies, so acks never precede their scene.
        if isFree(session.room) { session.room.syncScene() }
        guard !session.closing else { return }
        session.flushReplies()
        if session.connection.pendingBytes > readPauseHighBytes { pauseReading(session) }
    }

    /// One WebSocket text message: handled at once while the bucket has a token and nothing older waits;
    /// otherwise it waits, in order, like a TCP line (the same rules for both transports).
    func receivedMessage(_ message: [UInt8], from session: ClientSession) {
        guard !session.closing else { return }
        let now = EventLoop.hrtimeNs
        if session.throttle.warned, session.bucket.isFull(nowNs: now) { session.throttle.warned = false }
        if session.throttle.hasInbox || !session.bucket.hasToken(nowNs: now) {
            session.throttle.stashMessage(message)
            overRate(session)
            return
        }
        message.withUnsafeBytes { handleLine($0, from: session) }
    }

    /// Hands waiting WebSocket messages to the session while its bucket has tokens.
    private func consumeMessages(of session: ClientSession) {
        while !session.closing, session.bucket.hasToken(nowNs: EventLoop.hrtimeNs),
              let message = session.throttle.takeMessage() {
            message.withUnsafeBytes { handleLine($0, from: session) }
        }
    }

    private func overRate(_ session: ClientSession) {
        if !session.throttle.warned {
            session.throttle.warned = true
            session.reply(.error(ProtocolError(.rateLimited,
                "more than \(Int(config.rate)) commands/s (burst \(Int(config.burst))): the rest are read at that rate")))
        }
        pauseReading(session)
    }

    private func pauseReading(_ session: ClientSession) {
        guard !session.throttle.paused else { return }
        session.throttle.paused = true
        session.connection.pauseReading()
        log.debug("client \(session.id): reading paused (\(session.connection.pendingBytes) bytes unsent, \(session.throttle.inbox.count) bytes waiting)")
    }

    /// Runs on every tick timer pass: hands waiting lines to clients whose bucket refilled and resumes
    /// reading once nothing waits and their output has drained below the low watermark.
    func serviceThrottledReaders() {
        for session in Array(sessions.values) where session.throttle.paused || session.throttle.hasInbox {
            guard !session.closing, session.connection.pendingBytes < readPauseLowBytes else { continue }
            if session.throttle.hasInbox {
                guard session.bucket.hasToken(nowNs: EventLoop.hrtimeNs) else { continue }
                if session.throttle.messages.isEmpty {
                    let waiting = session.throttle.takeInbox()
                    waiting.withUnsafeBytes { consume($0, from: session) }
                } else {
                    consumeMessages(of: session)
                }
                finishRead(session)
            }
            if !session.closing, session.throttle.paused, !session.throttle.hasInbox,
               session.connection.pendingBytes < readPauseLowBytes {
                session.throttle.paused = false
                session.connection.resumeReading()
                log.debug("client \(session.id): reading resumed")
            }
        }
    }
}
