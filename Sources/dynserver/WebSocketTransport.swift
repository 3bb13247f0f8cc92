import NetProtocol

/// A client's WebSocket: the session's messages go out one per text frame (framed by wslay, over the TCP
/// stream that carried the HTTP upgrade; a broadcast buffer is framed once for every WebSocket), and the
/// peer's text messages come back one by one.
///
/// Guarantees: everything `ClientTransport` asks — each `write` becomes whole frames handed to the TCP
/// stream in one piece, so a `latestOnly` snapshot replaces a waiting one frame for frame; nothing is
/// written after the Close frame; `closeAfterFlush` sends what is queued, then a Close frame (1001), then
/// closes. Pongs and Close replies produced by reading are written at once.
final class WebSocketTransport: ClientTransport {
    let tcp: TCPConnection
    let endpoint: WebSocketEndpoint
    let peerDescription: String
    private let framer: WebSocketTextFramer

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
        guard !tcp.isClosing, !endpoint.closeSent else { return }
        let framed = framer.frames(for: bytes)
        if framed.count > 0 { tcp.write(framed, kind: kind) }
    }

    /// The complete messages in `bytes`; answers wslay produced (pong, Close reply) are written first.
    func receive(_ bytes: UnsafeRawBufferPointer) -> [WebSocketEndpoint.Message] {
        let messages = endpoint.receive(bytes)
        let answer = endpoint.takeOutput()
        if !answer.isEmpty, !tcp.isClosing { tcp.write(answer) }
        return messages
    }

    func closeAfterFlush(timeoutMs: UInt64) {
        guard !tcp.isClosing else { return }
        if !endpoint.closeSent {
            let close = endpoint.close(code: 1001, reason: "going away")
            if !close.isEmpty { tcp.write(close) }
        }
        tcp.closeAfterFlush(timeoutMs: timeoutMs, then: nil)
    }

    /// Closes at once; only a Close frame already queued (the closing handshake) is still sent first.
    func closeNow() {
        if endpoint.closeSent {
            tcp.closeAfterFlush(timeoutMs: 500, then: nil)
        } else {
            tcp.close()
        }
    }
}

extension WebSocketTransport {
    /// Backpressure reaches the WebSocket's TCP stream: no frames are read while paused.
    func pauseReading() { tcp.pauseReadingStream() }
    func resumeReading() { try? tcp.resumeReadingStream() }
}
