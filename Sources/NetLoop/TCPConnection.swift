import CLibUV

/// One TCP stream on the loop: an accepted server connection or an outgoing client connection.
///
/// Guarantees: everything `StreamHandle` guarantees; `close()` cancels unfinished writes (their buffers
/// are released in the write callbacks) and frees the handle in its close callback; `closeAfterFlush`
/// sends what is queued first and gives up after `timeoutMs`.
public final class TCPConnection: StreamHandle {
    private var connectCallback: ((UVError?) -> Void)?

    /// A fresh, unconnected TCP handle (for `accept` or `connect`).
    public init(loop: EventLoop) throws(UVError) {
        super.init(loop: loop, type: UV_TCP)
        try uvCheck(uv_tcp_init(loop.raw, tcp), "uv_tcp_init")
        adopt()
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { memory.assumingMemoryBound(to: uv_tcp_t.self) }

    /// Connects to `address`; `completion` gets nil on success.
    public func connect(to address: SocketAddress, _ completion: @escaping (UVError?) -> Void) {
        guard isOpen else { return completion(UVError.closedHandle("uv_tcp_connect")) }
        connectCallback = completion
        let req = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        req.initialize(to: uv_connect_t())
        req.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let rc = address.withSockaddr { sa in
            uv_tcp_connect(req, tcp, sa) { req, status in
                guard let req else { return }
                let me = Unmanaged<TCPConnection>.fromOpaque(req.pointee.data).takeRetainedValue()
                req.deallocate()
                let callback = me.connectCallback
                me.connectCallback = nil
                callback?(status < 0 ? UVError(code: status, operation: "connect") : nil)
            }
        }
        if rc < 0 {
            Unmanaged<TCPConnection>.fromOpaque(req.pointee.data).release()
            req.deallocate()
            connectCallback = nil
            completion(UVError(code: rc, operation: "uv_tcp_connect"))
        }
    }

    /// Sets TCP_NODELAY; does nothing on a closed handle.
    public func setNoDelay(_ on: Bool) { if isOpen { uv_tcp_nodelay(tcp, on ? 1 : 0) } }

    /// Sets the kernel's send buffer (Linux doubles the value). A small buffer keeps unsent data in our own
    /// queue, where a newer `latestOnly` write can still replace it, instead of megabytes deep in the kernel.
    public func setSendBufferSize(_ bytes: Int32) throws(UVError) {
        try checkOpen("uv_send_buffer_size")
        var value = bytes
        try uvCheck(uv_send_buffer_size(UnsafeMutableRawPointer(tcp).assumingMemoryBound(to: uv_handle_t.self), &value),
                    "uv_send_buffer_size")
    }

    /// The remote address, when the socket is connected (nil once closing).
    public var peer: SocketAddress? {
        guard isOpen else { return nil }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutableBytes(of: &storage) { raw in
            uv_tcp_getpeername(tcp, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        return rc == 0 ? SocketAddress(storage: storage) : nil
    }

    /// Sends everything queued, then closes; closes anyway after `timeoutMs` (a peer that never reads).
    public func closeAfterFlush(timeoutMs: UInt64, then: (() -> Void)? = nil) {
        guard !isClosing else { return }
        stopReading()
        if isIdle || writeError != nil {
            close(then: then)
            return
        }
        let timer = try? UVTimer(loop: loop)
        onDrained = { [weak self] in
            timer?.close()
            self?.close(then: then)
        }
        try? timer?.start(afterMs: timeoutMs) { [weak self] in
            timer?.close()
            self?.close(then: then)
        }
    }

    /// Resets the connection (RST instead of FIN), used by tests that simulate a vanished peer.
    public func closeReset() {
        guard beginClose(then: nil) else { return }
        if uv_tcp_close_reset(tcp, uvHandleClosed) != 0 { uv_close(UnsafeMutableRawPointer(tcp).assumingMemoryBound(to: uv_handle_t.self), uvHandleClosed) }
    }

    override func didClose() { connectCallback = nil }
}
