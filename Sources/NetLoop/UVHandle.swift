import CLibUV

/// Base of every Swift object that owns a libuv handle.
///
/// Guarantees: the handle's memory is allocated here and freed only in its `uv_close` callback; while the
/// handle is open the object keeps itself alive through `handle.data` (a retained `Unmanaged` reference),
/// so a C callback can never reach a freed object; `close()` is idempotent and the optional completion runs
/// once, after libuv has released the handle. Every operation on a handle that is closing or closed either
/// throws `UVError` `EBADF` ("… on a closed handle") or does nothing (the non-throwing ones), and never touches
/// the handle's memory once it is freed; `didClose` runs in the close callback before the memory is freed.
public class UVHandle {
    public let loop: EventLoop
    let memory: UnsafeMutableRawPointer
    private var adopted = false
    public private(set) var isClosing = false
    /// Set once the close callback has freed the handle's memory.
    private(set) var memoryFreed = false
    private var onClosed: (() -> Void)?

    init(loop: EventLoop, type: uv_handle_type) {
        self.loop = loop
        let size = uv_handle_size(type)
        memory = .allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }

    deinit {
        // Only a handle libuv never saw is freed here; an adopted one is freed in the close callback.
        if !adopted { memory.deallocate() }
    }

    var handle: UnsafeMutablePointer<uv_handle_t> { memory.assumingMemoryBound(to: uv_handle_t.self) }

    /// Open: initialised by libuv and not closing. Only an open handle's memory is ever passed to libuv.
    public var isOpen: Bool { adopted && !isClosing }

    /// Throws `EBADF` for `operation` unless the handle is open.
    func checkOpen(_ operation: @autoclosure () -> String) throws(UVError) {
        guard isOpen else { throw UVError.closedHandle(operation()) }
    }

    /// Called by subclasses right after their `uv_*_init` succeeded.
    func adopt() {
        adopted = true
        loop.liveHandles += 1
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Closes the handle; `then` runs after libuv has released it.
    public func close(then: (() -> Void)? = nil) {
        guard beginClose(then: then) else { return }
        uv_close(handle, uvHandleClosed)
    }

    /// Marks the handle closing and runs `willClose`; false when it was not open.
    func beginClose(then: (() -> Void)?) -> Bool {
        guard adopted, !isClosing else { return false }
        isClosing = true
        onClosed = then
        willClose()
        return true
    }

    fileprivate func markFreed() { memoryFreed = true }

    fileprivate func finishClose() {
        loop.liveHandles -= 1
        let done = onClosed
        onClosed = nil
        didClose()
        done?()
    }

    /// Hook for subclasses: drop callbacks before libuv starts tearing the handle down.
    func willClose() {}
    /// Hook for subclasses: runs in the close callback, before the memory is freed.
    func didClose() {}

    /// Lets the loop exit even though this handle is active (e.g. a signal watcher).
    public func unref() { if isOpen { uv_unref(handle) } }
    public func ref() { if isOpen { uv_ref(handle) } }

    static func object<T: UVHandle>(_ handle: UnsafeMutablePointer<uv_handle_t>?, as: T.Type) -> T? {
        guard let handle, let data = handle.pointee.data else { return nil }
        return Unmanaged<UVHandle>.fromOpaque(data).takeUnretainedValue() as? T
    }
}

/// The one close callback of every handle: runs `didClose` (and the completion) while the memory is still
/// valid, frees the memory, then balances the retain taken in `adopt()`.
func uvHandleClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let data = handle.pointee.data else { return }
    let object = Unmanaged<UVHandle>.fromOpaque(data).takeRetainedValue()
    object.finishClose()
    handle.pointee.data = nil
    UnsafeMutableRawPointer(handle).deallocate()
    object.markFreed()
}
