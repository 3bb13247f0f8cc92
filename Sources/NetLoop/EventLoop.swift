import CLibUV

/// A libuv event loop owned by Swift.
///
/// Guarantees: every handle created on this loop is used only from the thread that calls `run`; the loop's
/// memory lives until `close()` succeeds (or the object is released after a successful close); `close()`
/// reports libuv's own verdict, so a test can assert that no handle leaked (`close() == 0`).
public final class EventLoop {
    let raw: UnsafeMutablePointer<uv_loop_t>
    /// One read buffer shared by every stream of the loop: reads are consumed synchronously in the read
    /// callback, so a single buffer is enough and no allocation happens per read.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Handles initialised on this loop and not yet through their close callback.
    public internal(set) var liveHandles = 0
    private var closed = false

    public init(readBufferSize: Int = 64 * 1024) throws(UVError) {
        raw = .allocate(capacity: 1)
        let rc = uv_loop_init(raw)
        if rc < 0 {
            raw.deallocate()
            throw UVError(code: rc, operation: "uv_loop_init")
        }
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        raw.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        if !closed {
            // A loop that still has handles cannot be closed; leaking its memory is safer than freeing it
            // under libuv's feet. A clean shutdown calls close() first.
            if uv_loop_close(raw) == 0 { raw.deallocate() }
        } else {
            raw.deallocate()
        }
        readBuffer.deallocate()
    }

    /// Runs until there is nothing left to do or `stop()` is called.
    @discardableResult
    public func run() -> Int32 { uv_run(raw, UV_RUN_DEFAULT) }

    /// Runs one iteration, waiting for I/O when `wait` is true.
    @discardableResult
    public func runOnce(wait: Bool = true) -> Int32 { uv_run(raw, wait ? UV_RUN_ONCE : UV_RUN_NOWAIT) }

    /// Makes `run()` return after the current iteration.
    public func stop() { uv_stop(raw) }

    /// The loop's cached monotonic time in milliseconds (updated at the start of each iteration).
    public var nowMs: UInt64 { uv_now(raw) }

    /// High-resolution monotonic time in nanoseconds (not cached).
    public static var hrtimeNs: UInt64 { uv_hrtime() }

    public func updateTime() { uv_update_time(raw) }

    /// The libuv loop itself, for C libraries that drive their own handles on it (hiredis' libuv adapter,
    /// libcurl's multi interface): they must be used on the loop thread and close every handle they open.
    public var uvLoop: UnsafeMutablePointer<uv_loop_t> { raw }

    /// Closes every handle still open (used on shutdown paths), then lets their close callbacks run.
    public func closeAllHandles() {
        uv_walk(raw, { handle, _ in
            guard let handle, uv_is_closing(handle) == 0, let data = handle.pointee.data else { return }
            Unmanaged<UVHandle>.fromOpaque(data).takeUnretainedValue().close()
        }, nil)
        uv_run(raw, UV_RUN_NOWAIT)
    }

    /// Closes the loop. Returns libuv's code: 0 when every handle was closed, `UV_EBUSY` otherwise.
    public func close() -> Int32 {
        guard !closed else { return 0 }
        let rc = uv_loop_close(raw)
        if rc == 0 { closed = true }
        return rc
    }
}
