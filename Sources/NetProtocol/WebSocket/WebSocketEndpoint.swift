import CWslay

/// One end of a WebSocket connection (RFC 6455) framed by wslay, which does no I/O: bytes received go in
/// through `receive`, and every method returns the bytes to send.
///
/// Guarantees: the peer's frames are checked by wslay (a server requires masked client frames, a client
/// unmasked server frames; reserved bits, opcodes and control-frame sizes; UTF-8 of text frames), and any
/// violation queues a Close frame with the RFC's status and ends reading — always with a status: `1002` for
/// a frame wslay's frame layer rejects (a control frame over 125 bytes or fragmented, a length not in its
/// shortest form or with its top bit set) and for a Close payload of one byte, which wslay itself would
/// answer with an empty Close; `1007` for text that is not UTF-8. Pings are answered with pongs and a
/// Close frame with a Close frame, each in the order the frames arrived (a Ping's Pong goes before the Close
/// of a Close frame that follows it in the same read). Fragmented data messages are reassembled here, up to `maxMessageBytes`:
/// a longer message is discarded whole (reported as `.tooLong`) and the connection stays usable. Nothing is
/// produced after a Close frame was sent.
public final class WebSocketEndpoint {
    public enum Role: Sendable { case server, client }

    /// A complete message from the peer.
    public enum Message: Sendable {
        case text([UInt8])
        /// A binary message (its length), as a server sees it: clients send text only.
        case binary(Int)
        /// A binary message's bytes, as a client sees it: packed frames (docs/PROTOCOL.md, "packed").
        case binaryData([UInt8])
        /// A data message longer than the limit (its length so far), discarded whole.
        case tooLong(Int)
        case pong([UInt8])
        /// The peer's Close frame, with its status code (1005 when it had none).
        case close(UInt16)
    }

    public let role: Role
    public let maxMessageBytes: Int
    private var context: wslay_event_context_ptr?
    private var input: UnsafeRawBufferPointer?
    private var inputOffset = 0
    /// Where the current input must be handed over no further (`CloseFrameGate`).
    private var inputLimit = 0
    private var inputCuts: [Int] = []
    /// Keeps each Close frame whole for wslay; `held` is a Close frame not fully arrived yet.
    private var gate = CloseFrameGate()
    private var held: [UInt8] = []
    private var output: [UInt8] = []
    private var received: [Message] = []
    // The data message being reassembled.
    private var messageOpcode: UInt8 = 0
    private var messageBytes: [UInt8] = []
    private var messageLength = 0
    private var frameFin = false
    private var frameIsControl = false
    /// The status of a violation wslay closes without one (see `receive`); nil while none happened.
    private var violationStatus: UInt16?

    public init(role: Role, maxMessageBytes: Int) {
        self.role = role
        self.maxMessageBytes = maxMessageBytes
        var callbacks = wslay_event_callbacks()
        callbacks.recv_callback = { context, buffer, length, _, user in
            let me = WebSocketEndpoint.owner(user)
            guard let input = me.input, me.inputOffset < me.inputLimit, let buffer else {
                wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
                return -1
            }
            // A read ends at a Close frame's start and end, so that the frame is a read of its own.
            let cut = me.inputCuts.first { $0 > me.inputOffset } ?? me.inputLimit
            let n = min(length, cut - me.inputOffset)
            UnsafeMutableRawPointer(buffer).copyMemory(from: input.baseAddress! + me.inputOffset, byteCount: n)
            me.inputOffset += n
            return n
        }
        callbacks.send_callback = { _, data, length, _, user in
            WebSocketEndpoint.owner(user).output.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            return length
        }
        callbacks.genmask_callback = { _, buffer, length, _ in
            var generator = SystemRandomNumberGenerator()
            for i in 0..<length { buffer?[i] = UInt8.random(in: 0...255, using: &generator) }
            return 0
        }
        callbacks.on_frame_recv_start_callback = { _, arg, user in
            guard let arg else { return }
            WebSocketEndpoint.owner(user).frameStarted(opcode: arg.pointee.opcode, fin: arg.pointee.fin != 0)
        }
        callbacks.on_frame_recv_chunk_callback = { _, arg, user in
            guard let arg else { return }
            WebSocketEndpoint.owner(user).frameChunk(UnsafeRawBufferPointer(start: arg.pointee.data, count: arg.pointee.data_length))
        }
        callbacks.on_frame_recv_end_callback = { _, user in WebSocketEndpoint.owner(user).frameEnded() }
        callbacks.on_msg_recv_callback = { _, arg, user in
            guard let arg else { return }
            WebSocketEndpoint.owner(user).controlMessage(arg.pointee)
        }
        let user = Unmanaged.passUnretained(self).toOpaque()
        let rc = role == .server ? wslay_event_context_server_init(&context, &callbacks, user)
                                 : wslay_event_context_client_init(&context, &callbacks, user)
        precondition(rc == 0, "wslay_event_context_init failed: out of memory")
        // Data messages are reassembled here (with our own limit); wslay still buffers control frames.
        wslay_event_config_set_no_buffering(context, 1)
    }

    deinit { wslay_event_context_free(context) }

    private static func owner(_ user: UnsafeMutableRawPointer?) -> WebSocketEndpoint {
        Unmanaged<WebSocketEndpoint>.fromOpaque(user!).takeUnretainedValue()
    }

    // MARK: receiving

    /// Feeds received bytes. Returns the complete messages they finished, in order; the bytes to send in
    /// answer (pongs, Close replies) are waiting in `takeOutput()`.
    public func receive(_ bytes: UnsafeRawBufferPointer) -> [Message] {
        if held.isEmpty {
            feed(bytes)
        } else {
            let pending = held + Array(bytes)
            held.removeAll()
            pending.withUnsafeBytes { feed($0) }
        }
        _ = wslay_event_send(context)
        if let status = violationStatus { giveStatusToEmptyClose(status) }
        let messages = received
        received.removeAll()
        return messages
    }

    /// Hands `bytes` to wslay as `CloseFrameGate` plans, keeping a Close frame not fully arrived in `held`.
    private func feed(_ bytes: UnsafeRawBufferPointer) {
        guard wantsRead else { return }
        let plan = gate.plan(bytes)
        held = Array(bytes[plan.deliverable...])
        input = bytes
        inputOffset = 0
        inputLimit = plan.deliverable
        inputCuts = plan.cuts
        defer { input = nil; inputCuts = [] }
        while inputOffset < inputLimit, wantsRead {
            let before = inputOffset
            let mayViolate = !closeSent
            // A nonzero result is a frame the frame layer rejected (our reader only ever says "would
            // block"): wslay has then queued a Close without a status, which the peer must not be left to
            // guess at.
            if wslay_event_recv(context) != 0 {
                if mayViolate, violationStatus == nil { violationStatus = 1002 }
                break
            }
            if inputOffset == before { break }
        }
    }

    private func frameStarted(opcode: UInt8, fin: Bool) {
        frameFin = fin
        frameIsControl = opcode & 0x8 != 0
        guard !frameIsControl, opcode != UInt8(WSLAY_CONTINUATION_FRAME.rawValue) else { return }
        messageOpcode = opcode
        messageBytes.removeAll(keepingCapacity: messageBytes.capacity <= 65536)
        messageLength = 0
    }

    /// Text messages are kept; binary ones only by a client (a server refuses them unread).
    private func keepsPayload(_ opcode: UInt8) -> Bool {
        opcode == UInt8(WSLAY_TEXT_FRAME.rawValue) || (role == .client && opcode == UInt8(WSLAY_BINARY_FRAME.rawValue))
    }

    private func frameChunk(_ chunk: UnsafeRawBufferPointer) {
        guard !frameIsControl else { return }
        messageLength += chunk.count
        if keepsPayload(messageOpcode), messageLength <= maxMessageBytes {
            messageBytes.append(contentsOf: chunk)
        } else if !messageBytes.isEmpty {
            messageBytes.removeAll()
        }
    }

    private func frameEnded() {
        if frameIsControl {
            frameIsControl = false
            return
        }
        guard frameFin else { return }
        if messageOpcode != UInt8(WSLAY_TEXT_FRAME.rawValue), !keepsPayload(messageOpcode) {
            received.append(.binary(messageLength))
        } else if messageLength > maxMessageBytes {
            received.append(.tooLong(messageLength))
        } else if messageOpcode == UInt8(WSLAY_TEXT_FRAME.rawValue) {
            received.append(.text(messageBytes))
        } else {
            received.append(.binaryData(messageBytes))
        }
        messageBytes.removeAll(keepingCapacity: messageBytes.capacity <= 65536)
        messageLength = 0
    }

    private func controlMessage(_ arg: wslay_event_on_msg_recv_arg) {
        switch arg.opcode {
        case UInt8(WSLAY_PING.rawValue):
            // wslay has just queued the Pong; send it now, because wslay's control queue would let a Close
            // queued later in the same read go first, and nothing is sent after a Close (the Pong was lost).
            _ = wslay_event_send(context)
        case UInt8(WSLAY_PONG.rawValue):
            received.append(.pong(Array(UnsafeBufferPointer(start: arg.msg, count: arg.msg_length))))
        case UInt8(WSLAY_CONNECTION_CLOSE.rawValue):
            // A one-byte payload cannot hold a status (RFC 6455 5.5.1): a violation, not a Close without one.
            if arg.msg_length == 1, violationStatus == nil, !closeSent { violationStatus = 1002 }
            received.append(.close(arg.status_code == 0 ? 1005 : arg.status_code))
        default:
            break
        }
    }

    // MARK: sending

    /// One text frame carrying `payload`; empty once a Close frame was sent.
    public func text(_ payload: UnsafeRawBufferPointer) -> [UInt8] {
        queue(opcode: UInt8(WSLAY_TEXT_FRAME.rawValue), payload)
        return takeOutput()
    }

    /// One frame of any opcode (binary, ping, pong): for clients and tests.
    public func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        payload.withUnsafeBytes { queue(opcode: opcode, $0) }
        return takeOutput()
    }

    /// A text message split into frames of at most `fragmentBytes` payload each (continuation frames).
    public func fragmentedText(_ payload: [UInt8], fragmentBytes: Int) -> [UInt8] {
        fragmentedTextFrames(payload, fragmentBytes: fragmentBytes).flatMap { $0 }
    }

    /// The frames of `fragmentedText`, one array each (so that a control frame can go between them).
    public func fragmentedTextFrames(_ payload: [UInt8], fragmentBytes: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(payload.count, start + max(1, fragmentBytes))
            var iocb = wslay_frame_iocb()
            iocb.fin = end == payload.count ? 1 : 0
            iocb.opcode = start == 0 ? UInt8(WSLAY_TEXT_FRAME.rawValue) : UInt8(WSLAY_CONTINUATION_FRAME.rawValue)
            result.append(WebSocketFrameWriter.frame(iocb: iocb, masked: role == .client, payload: Array(payload[start..<end])))
            start = end
        } while start < payload.count
        return result
    }

    /// A Close frame with `code` and `reason`; the connection should close once it is sent.
    public func close(code: UInt16, reason: String = "") -> [UInt8] {
        let reasonBytes = Array(reason.utf8.prefix(123))
        reasonBytes.withUnsafeBufferPointer { _ = wslay_event_queue_close(context, code, $0.baseAddress, $0.count) }
        _ = wslay_event_send(context)
        return takeOutput()
    }

    /// Replaces the status-less Close frame wslay just produced for a violation (always the last frame
    /// sent, `88 00` from a server, `88 80` and a mask from a client) with one carrying `status`.
    private func giveStatusToEmptyClose(_ status: UInt16) {
        let length = role == .server ? 2 : 6
        guard output.count >= length, output[output.count - length] == 0x88,
              output[output.count - length + 1] & 0x7F == 0 else { return }
        output.removeLast(length)
        var iocb = wslay_frame_iocb()
        iocb.fin = 1
        iocb.opcode = UInt8(WSLAY_CONNECTION_CLOSE.rawValue)
        let reason = Array("protocol violation".utf8)
        output += WebSocketFrameWriter.frame(iocb: iocb, masked: role == .client,
                                             payload: [UInt8(status >> 8), UInt8(status & 0xFF)] + reason)
    }

    /// Bytes produced and not yet taken (answers to what `receive` got).
    public func takeOutput() -> [UInt8] {
        let bytes = output
        output.removeAll()
        return bytes
    }

    /// True while the peer may still send messages (no Close received, no protocol violation).
    public var wantsRead: Bool { wslay_event_want_read(context) != 0 }
    /// True once this end sent its Close frame: nothing more will be written.
    public var closeSent: Bool { wslay_event_get_close_sent(context) != 0 }
    /// The status this end sent in its Close frame (0 before).
    public var statusCodeSent: UInt16 { closeSent ? violationStatus ?? wslay_event_get_status_code_sent(context) : 0 }

    private func queue(opcode: UInt8, _ payload: UnsafeRawBufferPointer) {
        var message = wslay_event_msg()
        message.opcode = opcode
        message.msg = payload.baseAddress?.assumingMemoryBound(to: UInt8.self)
        message.msg_length = payload.count
        guard wslay_event_queue_msg(context, &message) == 0 else { return }
        _ = wslay_event_send(context)
    }
}
