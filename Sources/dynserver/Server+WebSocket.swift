import NetProtocol
import NetLoop

/// The WebSocket side of the session logic: each text message is handed to the same per-message handling
/// as a TCP line (never re-split on newlines); the transport's own limits map to the protocol's errors.
extension Server {
    /// Admits a client that completed the WebSocket handshake on `tcp`; `leftover` are bytes that arrived
    /// after the handshake in the same read.
    func acceptWebSocket(_ tcp: TCPConnection, leftover: UnsafeRawBufferPointer, framer: WebSocketTextFramer, room: String? = nil) {
        guard !shuttingDown else {
            tcp.close()
            return
        }
        tcp.setNoDelay(true)
        try? tcp.setSendBufferSize(Int32(config.sendBufferBytes))
        let transport = WebSocketTransport(tcp: tcp, maxMessageBytes: config.maxLineBytes, framer: framer)
        guard let session = admit(transport, room: room) else { return }
        do {
            try tcp.startReading(onData: { [unowned self, unowned session] bytes in
                self.receivedWebSocket(bytes, from: session, over: transport)
            }, onEnd: { [unowned self, unowned session] error in
                self.drop(session, reason: error.map { "read error \($0)" } ?? "disconnected")
            })
        } catch {
            drop(session, reason: "cannot read: \(error)")
            return
        }
        if leftover.count > 0 { receivedWebSocket(leftover, from: session, over: transport) }
    }

    /// One read: its text messages are handled (or wait, in order, while reading is held back), their replies
    /// are written, and only then the control frames the read produced (pongs, a Close), so a command and a
    /// Close in one write still get the command's answer before the Close (docs/PROTOCOL.md).
    private func receivedWebSocket(_ bytes: UnsafeRawBufferPointer, from session: ClientSession, over transport: WebSocketTransport) {
        guard !session.closing else { return }
        let limit = config.maxLineBytes
        for message in transport.receive(bytes) {
            guard !session.closing else { return }
            switch message {
            case .text(let text):
                // An empty message is like an empty line on TCP: ignored. While reading is held back (rate
                // limit, backed-up output), frames are read ahead only for their control frames: messages wait.
                if text.isEmpty { continue }
                if transport.readingHeld {
                    session.throttle.stashMessage(text)
                } else {
                    receivedMessage(text, from: session)
                }
            case .binary:
                _ = session.bucket.take(nowNs: EventLoop.hrtimeNs)
                session.reply(.error(ProtocolError(.badJSON, "binary frames are not accepted: send each message as one JSON text frame")))
            case .tooLong(let length):
                session.reply(.error(ProtocolError(.lineTooLong, "message of \(length) bytes is longer than \(limit) bytes and was discarded")))
            case .pong, .close, .binaryData:
                break
            }
        }
        guard !session.closing else { return }
        finishRead(session)
        guard !session.closing else { return }
        if !transport.endpoint.wantsRead, !isFree(session.room) {
            // The read's commands wait for their room (on a worker): their replies still go before the Close,
            // so the Close and the end of the session wait behind them, in the room's input order.
            whenFree(session.room) { [weak self, weak session] in
                guard let self, let session, !session.closing else { return }
                self.finishRead(session)
                guard !session.closing else { return }
                self.closeWebSocket(session, over: transport)
            }
            return
        }
        closeWebSocket(session, over: transport)
    }

    /// Writes the control frames of the read; ends the session when the peer closed or broke the protocol.
    private func closeWebSocket(_ session: ClientSession, over transport: WebSocketTransport) {
        transport.flushControl()
        if !transport.endpoint.wantsRead {
            // Commands still waiting for the rate limit are discarded: the peer ended the session.
            drop(session, reason: "WebSocket closed (status \(transport.endpoint.statusCodeSent))")
        }
    }
}
