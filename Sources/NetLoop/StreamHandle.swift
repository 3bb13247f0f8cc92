import CLibUV
import DequeModule
import NetProtocol

/// A libuv stream (TCP or TTY) with reading and a bounded, inspectable write queue.
///
/// Guarantees: reliable writes reach libuv in the order given; at most one `latestOnly` write waits at a
/// time (a newer one replaces it, keeping its place after the reliable writes queued before it); writes go
/// to the kernel at once when it takes them (`uv_try_write`, several queued writes gathered into one call),
/// and at most one write waits in libuv at a time, so whatever the kernel cannot take yet stays in this queue
/// where it can still be superseded and where `pendingBytes` counts it; `stalledForMs` says how long the
/// write waiting in libuv has gone without progress.
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
    /// The most bytes gathered into one write.
    public var maxInFlightBytes = 256 * 1024
    /// The most buffers gathered into one write (libuv copies more than four into a heap array).
    static let maxGather = 64
    private var batch: [SharedBytes] = []
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
        readingPaused = false
        try beginReading()
    }

    /// True between `pauseReadingStream` and `resumeReadingStream`.
    public private(set) var readingPaused = false

    /// Stops reading (`uv_read_stop`) but keeps the callbacks, so `resumeReadingStream` can go on.
    public func pauseReadingStream() {
        guard !isClosing, onData != nil, !readingPaused else { return }
        readingPaused = true
        uv_read_stop(stream)
    }

    /// Reads again after `pauseReadingStream`; does nothing when not paused or when reading has ended.
    public func resumeReadingStream() throws(UVError) {
        guard !isClosing, readingPaused else { return }
        readingPaused = false
        guard onData != nil else { return }
        try beginReading()
    }

    private func beginReading() throws(UVError) {
        guard !isClosing else { throw UVError(code: UV_EBADF.rawValue, operation: "uv_read_start on a closed handle") }
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
        readingPaused = false
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

    /// Hands queued writes to the kernel. Only one write is ever in flight in libuv: while it waits, newer
    /// writes stay here, where a `latestOnly` one can still be replaced. Each pass gathers what is queued
    /// (up to `maxInFlightBytes` and `maxGather` buffers) and tries `uv_try_write` first, so the usual case
    /// costs one system call and no request; only what the kernel does not take goes to `uv_write`.
    private func pump() {
        while !isClosing, writeError == nil, inFlightBytes == 0 {
            gather()
            guard !batch.isEmpty else { break }
            submitBatch()
        }
        batch.removeAll(keepingCapacity: true)
        if pendingBytes == 0, let drained = onDrained {
            onDrained = nil
            drained()
        }
    }

    /// Moves the next writes in order from the queue into `batch`.
    private func gather() {
        batch.removeAll(keepingCapacity: true)
        var bytes = 0
        while batch.count < StreamHandle.maxGather, bytes < maxInFlightBytes {
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
            batch.append(next)
            bytes += next.count
        }
    }

    private func submitBatch() {
        let total = batch.reduce(0) { $0 + $1.count }
        var bufs = batch.map { uv_buf_init($0.bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32($0.count)) }
        let tried = uv_try_write(stream, &bufs, UInt32(bufs.count))
        if tried < 0, tried != UV_EAGAIN.rawValue, tried != UV_ENOSYS.rawValue {
            writeFailed(status: tried)
            return
        }
        let written = Int(max(tried, 0))
        if written > 0 { lastProgressMs = loop.nowMs }
        if written == total { return }
        // The kernel took part (or nothing): the rest goes to libuv as one request, from where it stopped.
        var skip = written
        var first = 0
        while skip >= batch[first].count {
            skip -= batch[first].count
            first += 1
        }
        let request = WriteRequest(stream: self, pieces: Array(batch[first...]), skip: skip)
        lastProgressMs = loop.nowMs
        inFlightBytes = total - written
        let rc = uv_write(request.req, stream, request.bufs, UInt32(request.count)) { req, status in
            guard let req, let data = req.pointee.data else { return }
            let request = Unmanaged<WriteRequest>.fromOpaque(data).takeRetainedValue()
            request.stream.writeCompleted(status: status)
        }
        if rc < 0 {
            Unmanaged.passUnretained(request).release()
            inFlightBytes = 0
            writeFailed(status: rc)
        }
    }

    private func writeCompleted(status: Int32) {
        inFlightBytes = 0
        lastProgressMs = loop.nowMs
        if status < 0 {
            writeFailed(status: status)
            return
        }
        pump()
    }

    /// The stream is broken: nothing more will be written.
    private func writeFailed(status: Int32) {
        if writeError == nil { writeError = UVError(code: status, operation: "write") }
        waiting.removeAll()
        waitingBytes = 0
        latest = nil
        batch.removeAll()
        if let drained = onDrained {
            onDrained = nil
            drained()
        }
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

/// One `uv_write_t` and the buffers it sends (the first may start part-way, after what `uv_try_write` took);
/// kept alive by a retained reference in `req.data` until libuv calls back (also with `UV_ECANCELED` when the
/// stream closes first), so the bytes outlive the write.
private final class WriteRequest {
    let req: UnsafeMutablePointer<uv_write_t>
    let stream: StreamHandle
    let pieces: [SharedBytes]
    let bufs: UnsafeMutablePointer<uv_buf_t>
    var count: Int { pieces.count }

    init(stream: StreamHandle, pieces: [SharedBytes], skip: Int) {
        self.stream = stream
        self.pieces = pieces
        bufs = .allocate(capacity: pieces.count)
        for (i, piece) in pieces.enumerated() {
            let offset = i == 0 ? skip : 0
            bufs[i] = uv_buf_init(piece.bytes.baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) },
                                  UInt32(piece.count - offset))
        }
        req = .allocate(capacity: 1)
        req.initialize(to: uv_write_t())
        req.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    deinit {
        bufs.deallocate()
        req.deallocate()
    }
}
