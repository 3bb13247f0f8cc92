import CLibUV

/// Delivers a POSIX signal to a callback on the loop thread (libuv turns it into a loop event, so the
/// callback may do anything, unlike a raw signal handler).
public final class SignalWatcher: UVHandle {
    private var callback: ((Int32) -> Void)?

    public init(loop: EventLoop, signal signum: Int32, _ callback: @escaping (Int32) -> Void) throws(UVError) {
        super.init(loop: loop, type: UV_SIGNAL)
        try uvCheck(uv_signal_init(loop.raw, sig), "uv_signal_init")
        adopt()
        self.callback = callback
        do {
            try uvCheck(uv_signal_start(sig, { sig, signum in
                let handle = UnsafeMutableRawPointer(sig)?.assumingMemoryBound(to: uv_handle_t.self)
                UVHandle.object(handle, as: SignalWatcher.self)?.callback?(signum)
            }, signum), "uv_signal_start")
        } catch {
            close()
            throw error
        }
    }

    private var sig: UnsafeMutablePointer<uv_signal_t> { memory.assumingMemoryBound(to: uv_signal_t.self) }

    override func willClose() { uv_signal_stop(sig); callback = nil }
}
