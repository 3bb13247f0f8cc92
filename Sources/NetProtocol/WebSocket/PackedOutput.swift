import CWslay

/// One encoded packed frame (docs/PROTOCOL.md, "packed") in the two shapes a transport sends: a `packed`
/// line with the bytes in base64 for TCP, and one binary WebSocket frame.
///
/// Guarantees: each shape is built at most once, when the first connection of that transport needs it, and
/// then shared by every connection that gets the same frame (one encoding per distinct baseline). Used on
/// the loop thread only.
public final class PackedOutput {
    public let tick: UInt64
    public let frame: [UInt8]
    private var cachedLine: SharedBytes?
    private var cachedWebSocket: SharedBytes?

    public init(tick: UInt64, frame: [UInt8]) {
        self.tick = tick
        self.frame = frame
    }

    /// `{"type":"packed","tick":T,"data":"<base64>"}\n`.
    public var line: SharedBytes {
        if let cachedLine { return cachedLine }
        let line = SharedBytes(PackedLine.encode(tick: tick, frame: frame))
        cachedLine = line
        return line
    }

    /// The frame as one unmasked binary WebSocket frame (RFC 6455 5.6, opcode 2), built by wslay.
    public var webSocketFrame: SharedBytes {
        if let cachedWebSocket { return cachedWebSocket }
        var header = wslay_frame_iocb()
        header.fin = 1
        header.opcode = UInt8(WSLAY_BINARY_FRAME.rawValue)
        let framed = SharedBytes(WebSocketFrameWriter.frame(iocb: header, masked: false, payload: frame))
        cachedWebSocket = framed
        return framed
    }
}
