import CLibUV
import DequeModule

/// What a queued write may do when newer data arrives before it was handed to the kernel.
public enum WriteKind: Sendable {
    /// Must be delivered, in order (acks, errors, scenes).
    case reliable
    /// Only the newest one matters: a newer `latestOnly` write replaces one still waiting (snapshots).
    case latestOnly
}

/// A libuv stream (TCP or TTY) with reading and a bounded, inspectable write queue.
///
/// Guarantees: reliable writes reach libuv in the order given; at most one `latestOnly` write waits at a
/// time (a newer one replaces it, keeping its place after the reliable writes queued before it); no more
/// than `maxInFlightBytes` are handed to libuv at once, so everything else stays in this queue where it can
/// still be superseded and where `pendingBytes` counts it; `stalledForMs` says how long the oldest write
/// handed to libuv has waited without progress.
public class StreamHandle: UVHandle {
    private var onData: ((UnsafeRawBufferPointer) -> Void)?
    private var onEnd: ((UVError?) -> Void)?
    private var waiting = Deque<SharedBytes>()
    private var waitingBytes = 0
    private var latest: (bytes: SharedBytes, afterReliable: UInt64)?
    private var reliableQueued: UInt64 = 0
    private var reliableSubmitted: UInt64 = 0
    public private(set) var inFlightBytes = 0
    private var lastProgressMs: UInt64 = 0
    /// Set when a write failed: the peer is gone or the stream is broken.
    public private(set) var writeError: UVError?
    /// Called when the queue becomes empty (everything written), e.g. to close after a `bye`.
    public var onDrained: (() -> Void)?
    public var maxInFlightBytes = 256 * 1024
    /// Writes superseded by a newer `latestOnly` write before being sent.
    public private(set) var droppedLatestOnly = 0

    var stream: UnsafeMutablePointer<uv_stream_t> { memory.assumingMemoryBound(to: uv_stream_t.self) }

    /// Bytes not yet confirmed written: waiting here plus handed to libuv.
    public var pendingBytes: Int { waitingBytes + (latest?.bytes.count ?? 0) + inFlightBytes }
    public var isIdle: Bool { pendingBytes == 0 }
    /// True while a `latestOnly` write waits here, not yet handed to libuv.
    public var hasQueuedLatestOnly: Bool { latest != nil }

    /// How long libuv has been holding unfinished writes without completing any, in loop milliseconds.
    public var stalledForMs: UInt64 {
        inFlightBytes == 0 ? 0 : loop.nowMs &- lastProgressMs
    }

    // MARK: reading

    public func startReading(onData: @escaping (UnsafeRawBufferPointer) -> Void,
                             onEnd: @escaping (UVError?) -> Void) throws(UVError) {
        self.onData = onData
        self.onEnd = onEnd
        try uvCheck(uv_read_start(stream, { handle, _, buf in
            guard let handle, let data = handle.pointee.data, let buf else { return }
            let loop = Unmanaged<UVHandle>.fromOpaque(data).takeUnretainedValue().loop
            buf.pointee = uv_buf_init(loop.readBuffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                                      UInt32(loop.readBuffer.count))
        }, { stream, nread, buf in
            let handle = UnsafeMutableRawPointer(stream)?.assumingMemoryBound(to: uv_handle_t.self)
            guard let me = UVHandle.object(handle, as: StreamHandle.self) else { return }
            if nread > 0, let base = buf?.pointee.base {
                me.onData?(UnsafeRawBufferPointer(start: base, count: nread))
            } else if nread < 0 {
                let end = me.onEnd
                me.stopReading()
                end?(nread == Int(UV_EOF.rawValue) ? nil : UVError(code: Int32(nread), operation: "read"))
            }
        }), "uv_read_start")
    }

    public func stopReading() {
        onData = nil
        onEnd = nil
        if !isClosing { uv_read_stop(stream) }
    }

    // MARK: writing

    public func write(_ bytes: SharedBytes, kind: WriteKind = .reliable) {
        guard !isClosing, writeError == nil, bytes.count > 0 else { return }
        switch kind {
        case .reliable:
            waiting.append(bytes)
            waitingBytes += bytes.count
            reliableQueued += 1
        case .latestOnly:
            if latest != nil { droppedLatestOnly += 1 }
            latest = (bytes, reliableQueued)
        }
        pump()
    }

    public func write(_ bytes: [UInt8], kind: WriteKind = .reliable) { write(SharedBytes(bytes), kind: kind) }

    private func pump() {
        while !isClosing, writeError == nil, inFlightBytes < maxInFlightBytes {
            let next: SharedBytes
            if let pending = latest, pending.afterReliable <= reliableSubmitted {
                next = pending.bytes
                latest = nil
            } else if let first = waiting.popFirst() {
                waitingBytes -= first.count
                reliableSubmitted += 1
                next = first
            } else {
                break
            }
            submit(next)
        }
        if pendingBytes == 0, let drained = onDrained {
            onDrained = nil
            drained()
        }
    }

    private func submit(_ bytes: SharedBytes) {
        if inFlightBytes == 0 { lastProgressMs = loop.nowMs }
        let request = WriteRequest(stream: self, bytes: bytes)
        inFlightBytes += bytes.count
        let rc = uv_write(request.req, stream, &request.buf, 1) { req, status in
            guard let req, let data = req.pointee.data else { return }
            let request = Unmanaged<WriteRequest>.fromOpaque(data).takeRetainedValue()
            request.stream.writeCompleted(byteCount: request.bytes.count, status: status)
        }
        if rc < 0 {
            Unmanaged.passUnretained(request).release()
            writeCompleted(byteCount: bytes.count, status: rc)
        }
    }

    private func writeCompleted(byteCount: Int, status: Int32) {
        inFlightBytes -= byteCount
        lastProgressMs = loop.nowMs
        if status < 0, writeError == nil {
            writeError = UVError(code: status, operation: "write")
            waiting.removeAll()
            waitingBytes = 0
            latest = nil
        }
        pump()
    }

    override func willClose() {
        onData = nil
        onEnd = nil
        onDrained = nil
        waiting.removeAll()
        waitingBytes = 0
        latest = nil
    }
}

/// One `uv_write_t` and the buffer it sends; kept alive by a retained reference in `req.data` until libuv
/// calls back (also with `UV_ECANCELED` when the stream closes first).
private final class WriteRequest {
    let req: UnsafeMutablePointer<uv_write_t>
    let stream: StreamHandle
    let bytes: SharedBytes
    var buf: uv_buf_t

    init(stream: StreamHandle, bytes: SharedBytes) {
        self.stream = stream
        self.bytes = bytes
        req = .allocate(capacity: 1)
        req.initialize(to: uv_write_t())
        buf = uv_buf_init(bytes.bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        req.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    deinit { req.deallocate() }
}
