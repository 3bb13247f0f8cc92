import NetProtocol

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

    private func receivedWebSocket(_ bytes: UnsafeRawBufferPointer, from session: ClientSession, over transport: WebSocketTransport) {
        guard !session.closing else { return }
        let limit = config.maxLineBytes
        for message in transport.receive(bytes) {
            guard !session.closing else { return }
            switch message {
            case .text(let text):
                // An empty message is like an empty line on TCP: ignored.
                if !text.isEmpty { receivedMessage(text, from: session) }
            case .binary:
                _ = session.bucket.take(nowNs: EventLoop.hrtimeNs)
                session.reply(.error(ProtocolError(.badJSON, "binary frames are not accepted: send each message as one JSON text frame")))
            case .tooLong(let length):
                session.reply(.error(ProtocolError(.lineTooLong, "message of \(length) bytes is longer than \(limit) bytes and was discarded")))
            case .pong, .close:
                break
            }
        }
        guard !session.closing else { return }
        finishRead(session)
        if !transport.endpoint.wantsRead, !session.closing {
            drop(session, reason: "WebSocket closed (status \(transport.endpoint.statusCodeSent))")
        }
    }
}
