import CLibUV

/// A libuv timer. The callback runs on the loop thread; `repeatMs` 0 means one shot.
public final class UVTimer: UVHandle {
    private var callback: (() -> Void)?

    public init(loop: EventLoop) throws(UVError) {
        super.init(loop: loop, type: UV_TIMER)
        try uvCheck(uv_timer_init(loop.raw, timer), "uv_timer_init")
        adopt()
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> { memory.assumingMemoryBound(to: uv_timer_t.self) }

    public func start(afterMs: UInt64, repeatMs: UInt64 = 0, _ callback: @escaping () -> Void) throws(UVError) {
        try checkOpen("uv_timer_start")
        self.callback = callback
        try uvCheck(uv_timer_start(timer, { timer in
            let handle = UnsafeMutableRawPointer(timer)?.assumingMemoryBound(to: uv_handle_t.self)
            UVHandle.object(handle, as: UVTimer.self)?.callback?()
        }, afterMs, repeatMs), "uv_timer_start")
    }

    public func stop() { if isOpen { uv_timer_stop(timer) } }

    override func willClose() { uv_timer_stop(timer); callback = nil }
}
