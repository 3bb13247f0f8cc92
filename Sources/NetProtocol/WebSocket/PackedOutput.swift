import CNettle
import CWslay

/// One encoded packed frame (docs/PROTOCOL.md, "packed") in the two shapes a transport sends: a `packed`
/// line with the bytes in base64 for TCP, and one binary WebSocket frame.
///
/// Guarantees: the shapes asked for at `init` are built there, each straight into one buffer the transports
/// share (the encoder's scratch is not kept); a shape not asked for is built the first time it is needed,
/// from the frame's bytes (kept unless the line was built, whose base64 holds them), then shared too. After
/// `init` it is used on the loop thread only.
public final class PackedOutput {
    public let tick: UInt64
    private var cachedLine: SharedBytes?
    private var cachedWebSocket: SharedBytes?
    /// The frame's bytes, unless the line was built (they are in its base64).
    private let kept: [UInt8]?

    /// `frame` in the shapes asked for (`line`: TCP, `webSocket`: a binary message); the bytes are read here only.
    public init(tick: UInt64, frame: UnsafeBufferPointer<UInt8>, line: Bool, webSocket: Bool) {
        self.tick = tick
        // wslay takes an array: the same one is kept when no line holds the bytes.
        let bytes = webSocket || !line ? Array(frame) : nil
        kept = line ? nil : bytes
        if line { cachedLine = PackedOutput.line(tick: tick, frame: frame) }
        if webSocket, let bytes { cachedWebSocket = PackedOutput.webSocketFrame(bytes) }
    }

    /// `frame`, each shape built when first needed.
    public init(tick: UInt64, frame: [UInt8]) {
        self.tick = tick
        kept = frame
    }

    /// `{"type":"packed","tick":T,"data":"<base64>"}\n`.
    public var line: SharedBytes {
        if let cachedLine { return cachedLine }
        let line = kept!.withUnsafeBufferPointer { PackedOutput.line(tick: tick, frame: $0) }
        cachedLine = line
        return line
    }

    /// The frame as one unmasked binary WebSocket frame (RFC 6455 5.6, opcode 2), built by wslay.
    public var webSocketFrame: SharedBytes {
        if let cachedWebSocket { return cachedWebSocket }
        let framed = PackedOutput.webSocketFrame(kept ?? frameFromLine())
        cachedWebSocket = framed
        return framed
    }

    /// The `packed` line (`PackedLine.encode`'s bytes), written straight into its buffer: the base64 by nettle.
    static func line(tick: UInt64, frame: UnsafeBufferPointer<UInt8>) -> SharedBytes {
        let encoded = (frame.count + 2) / 3 * 4
        return SharedBytes(capacity: 64 + ByteCursor.maxNumberBytes + encoded) { buffer in
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var head = ByteCursor(start)
            head.raw("{\"type\":\"packed\",\"tick\":")
            head.digits(tick)
            head.raw(",\"data\":\"")
            if frame.count > 0 {
                UnsafeMutableRawPointer(head.position).withMemoryRebound(to: CChar.self, capacity: encoded) { chars in
                    nettle_base64_encode_raw(chars, frame.count, frame.baseAddress)
                }
            }
            var tail = ByteCursor(head.position + encoded)
            tail.raw("\"}\n")
            return tail.position - start
        }
    }

    static func webSocketFrame(_ frame: [UInt8]) -> SharedBytes {
        var header = wslay_frame_iocb()
        header.fin = 1
        header.opcode = UInt8(WSLAY_BINARY_FRAME.rawValue)
        return SharedBytes(WebSocketFrameWriter.frame(iocb: header, masked: false, payload: frame))
    }

    /// The frame's bytes back from the line's base64 (only when the line was built and the bytes not kept).
    private func frameFromLine() -> [UInt8] {
        let text = String(decoding: line.readOnly, as: UTF8.self)
        let data = text.split(separator: "\"").dropFirst(9).first.map(String.init) ?? ""
        return PackedLine.decodeData(data) ?? []
    }
}

extension PackedFrameEncoder {
    /// `encode`, in the transports' shapes: a `packed` line when `line`, a binary WebSocket message when
    /// `webSocket`. Here, beside the shapes, so that the wire's files build alone (the fuzz targets do).
    public func output(_ current: PackedTable, checkedBase base: PackedTable?, previous: PackedTable?, paused: Bool,
                       held: Bool, clients: Int, drags: [DragInfo], line: Bool, webSocket: Bool) -> PackedOutput {
        let frame = encode(current, checkedBase: base, previous: previous, paused: paused, held: held, clients: clients,
                           drags: drags)
        return PackedOutput(tick: current.tick, frame: frame, line: line, webSocket: webSocket)
    }
}
