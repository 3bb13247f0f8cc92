import CLibUV

/// A libuv async handle: any thread may wake the loop, and the callback runs on the loop thread
/// (docs/ARCHITECTURE.md, Rooms and threads).
///
/// Guarantees: `signal` is the only part that may cross threads, and it only ever calls `uv_async_send`, which
/// libuv documents as thread-safe; several sends before the callback runs coalesce into one callback, so the
/// callback must drain everything that was posted. The owner stops every thread that holds the signal before
/// it closes the handle (a send on a closed handle would touch freed memory).
public final class AsyncWaker: UVHandle {
    private var callback: (() -> Void)?

    public init(loop: EventLoop, _ callback: @escaping () -> Void) throws(UVError) {
        super.init(loop: loop, type: UV_ASYNC)
        self.callback = callback
        try uvCheck(uv_async_init(loop.raw, async, { async in
            let handle = UnsafeMutableRawPointer(async)?.assumingMemoryBound(to: uv_handle_t.self)
            UVHandle.object(handle, as: AsyncWaker.self)?.callback?()
        }), "uv_async_init")
        adopt()
    }

    private var async: UnsafeMutablePointer<uv_async_t> { memory.assumingMemoryBound(to: uv_async_t.self) }

    /// What a worker thread holds to wake the loop.
    public var signal: Signal { Signal(async: async) }

    /// Wakes the loop from any thread.
    public struct Signal: @unchecked Sendable {
        // @unchecked: a raw pointer that is only ever passed to uv_async_send (thread-safe); the handle outlives
        // every holder (the owner joins its threads before it closes the handle).
        fileprivate let async: UnsafeMutablePointer<uv_async_t>

        public func send() { uv_async_send(async) }
    }

    override func willClose() { callback = nil }
}
