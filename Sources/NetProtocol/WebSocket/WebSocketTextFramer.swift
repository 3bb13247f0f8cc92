import CWslay

/// Server-to-client text frames (unmasked, RFC 6455 5.1) for buffers of `\n`-terminated protocol messages:
/// each message becomes one text frame without its newline, built by wslay's frame layer.
///
/// Guarantees: the same input buffer (by identity) gives the same output buffer without framing it again,
/// so a snapshot broadcast to many WebSocket clients is framed once and shared like the TCP bytes; the
/// output is whole frames only; empty lines give no frame.
public final class WebSocketTextFramer {
    private weak var lastInput: SharedBytes?
    private var lastOutput: SharedBytes?

    public init() {}

    public func frames(for bytes: SharedBytes) -> SharedBytes {
        if let lastInput, lastInput === bytes, let lastOutput { return lastOutput }
        var framed: [UInt8] = []
        framed.reserveCapacity(bytes.count + 16)
        let all = bytes.readOnly
        var start = 0
        var header = wslay_frame_iocb()
        header.fin = 1
        header.opcode = UInt8(WSLAY_TEXT_FRAME.rawValue)
        func emit(_ end: Int) {
            guard end > start else { return }
            framed += WebSocketFrameWriter.frame(iocb: header, masked: false, payload: Array(all[start..<end]))
        }
        for i in 0..<all.count where all[i] == UInt8(ascii: "\n") {
            emit(i)
            start = i + 1
        }
        emit(all.count)
        let output = SharedBytes(framed)
        lastInput = bytes
        lastOutput = output
        return output
    }
}
