import CWslay

/// Single RFC 6455 frames built by wslay's frame layer, with every header field under the caller's control:
/// fragments, reserved bits, unmasked client frames, a declared length longer than the bytes that follow.
/// `WebSocketEndpoint` uses it for fragmented messages; tests use it to send what a broken peer would.
public enum WebSocketFrameWriter {
    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// One frame: `iocb`'s fin, rsv and opcode; masked when `masked`; `payload` after a header declaring
    /// `declaredLength` bytes (default: the payload's length).
    public static func frame(iocb template: wslay_frame_iocb, masked: Bool, payload: [UInt8],
                             declaredLength: UInt64? = nil) -> [UInt8] {
        let sink = Sink()
        var callbacks = wslay_frame_callbacks()
        callbacks.send_callback = { data, length, _, user in
            Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            return length
        }
        callbacks.recv_callback = { _, _, _, _ in -1 }
        callbacks.genmask_callback = { buffer, length, _ in
            var generator = SystemRandomNumberGenerator()
            for i in 0..<length { buffer?[i] = UInt8.random(in: 0...255, using: &generator) }
            return 0
        }
        var context: wslay_frame_context_ptr?
        guard wslay_frame_context_init(&context, &callbacks, Unmanaged.passUnretained(sink).toOpaque()) == 0 else { return [] }
        defer { wslay_frame_context_free(context) }
        var iocb = template
        iocb.mask = masked ? 1 : 0
        iocb.payload_length = declaredLength ?? UInt64(payload.count)
        payload.withUnsafeBufferPointer { buffer in
            iocb.data = buffer.baseAddress
            iocb.data_length = buffer.count
            _ = wslay_frame_send(context, &iocb)
        }
        return withExtendedLifetime(sink) { sink.bytes }
    }
}
