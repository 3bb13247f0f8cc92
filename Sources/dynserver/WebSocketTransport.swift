import NetProtocol
import NetLoop

/// A client's WebSocket: the session's messages go out one per text frame (framed by wslay, over the TCP
/// stream that carried the HTTP upgrade; a broadcast buffer is framed once for every WebSocket), packed
/// frames one per binary frame, and the peer's text messages come back one by one.
///
/// Guarantees: everything `ClientTransport` asks — each `write` becomes whole frames handed to the TCP
/// stream in one piece, so a `latestOnly` snapshot replaces a waiting one frame for frame; nothing is
/// written after the Close frame; `closeAfterFlush` sends what is queued, then a Close frame (1001), then
/// closes. The control frames a read produces (pongs, the Close reply or the Close of a violation) wait in
/// `heldControl` until `flushControl`, so the replies to the commands of that same read go out first
/// (docs/PROTOCOL.md, "The WebSocket mapping"). While the session logic has paused reading (the rate limit
/// or a backed-up output), frames are still read ahead — up to `readAheadBytes` — so a Ping or a Close is
/// answered at once instead of waiting behind the command backlog; only past that does the TCP stream stop.
final class WebSocketTransport: ClientTransport {
    let tcp: TCPConnection
    let endpoint: WebSocketEndpoint
    let peerDescription: String
    private let framer: WebSocketTextFramer
    /// Pongs and Close frames produced by the last read, not yet written.
    private var heldControl: [UInt8] = []
    /// The Close frame is on its way to the peer: no more frames may follow it.
    private var closeWritten = false
    /// The session logic asked to stop reading (`pauseReading`); frames are still read ahead.
    private(set) var readingHeld = false
    /// Bytes read since `readingHeld` began.
    private var readAhead = 0
    /// How much is read ahead while held, before the TCP stream itself is paused.
    static let readAheadBytes = 256 * 1024

    /// `framer` is shared by every WebSocket of the server, so a broadcast is framed once.
    init(tcp: TCPConnection, maxMessageBytes: Int, framer: WebSocketTextFramer) {
        self.tcp = tcp
        self.framer = framer
        self.endpoint = WebSocketEndpoint(role: .server, maxMessageBytes: maxMessageBytes)
        self.peerDescription = tcp.peer?.description ?? "?"
    }

    var transportName: String { "websocket" }
    var pendingBytes: Int { tcp.pendingBytes }
    var hasQueuedLatestOnly: Bool { tcp.hasQueuedLatestOnly }
    var stalledForMs: UInt64 { tcp.stalledForMs }

    /// Frames each `\n`-terminated message of `bytes` as one text frame (without its newline).
    func write(_ bytes: SharedBytes, kind: WriteKind) {
        guard !tcp.isClosing, !closeWritten else { return }
        let framed = framer.frames(for: bytes)
        if framed.count > 0 { tcp.write(framed, kind: kind) }
    }

    /// A packed frame as one binary message.
    @discardableResult func writePacked(_ packed: PackedOutput, kind: WriteKind) -> Int {
        guard !tcp.isClosing, !closeWritten else { return 0 }
        let framed = packed.webSocketFrame
        tcp.write(framed, kind: kind)
        return framed.count
    }

    /// The complete messages in `bytes`; the answers wslay produced (pongs, a Close) wait for `flushControl`.
    func receive(_ bytes: UnsafeRawBufferPointer) -> [WebSocketEndpoint.Message] {
        if readingHeld {
            readAhead += bytes.count
            if readAhead > Self.readAheadBytes { tcp.pauseReadingStream() }
        }
        let messages = endpoint.receive(bytes)
        heldControl += endpoint.takeOutput()
        return messages
    }

    /// Writes the control frames of the last read (after that read's replies).
    func flushControl() {
        guard !heldControl.isEmpty, !tcp.isClosing, !closeWritten else { return }
        tcp.write(heldControl)
        heldControl.removeAll()
        if endpoint.closeSent { closeWritten = true }
    }

    func closeAfterFlush(timeoutMs: UInt64) {
        guard !tcp.isClosing else { return }
        flushControl()
        if !endpoint.closeSent {
            let close = endpoint.close(code: 1001, reason: "going away")
            if !close.isEmpty { tcp.write(close) }
        }
        closeWritten = true
        tcp.closeAfterFlush(timeoutMs: timeoutMs, then: nil)
    }

    /// Closes at once; only a Close frame already produced (the closing handshake) is still sent first.
    func closeNow() {
        if endpoint.closeSent {
            flushControl()
            closeWritten = true
            tcp.closeAfterFlush(timeoutMs: 500, then: nil)
        } else {
            tcp.close()
        }
    }
}

extension WebSocketTransport {
    /// Backpressure: new text messages wait (the session stashes them) while frames are still read ahead.
    func pauseReading() {
        guard !readingHeld else { return }
        readingHeld = true
        readAhead = 0
    }

    func resumeReading() {
        readingHeld = false
        readAhead = 0
        try? tcp.resumeReadingStream()
    }
}
