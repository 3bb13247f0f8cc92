import CLibUV

/// A listening TCP socket that hands each accepted connection to `onConnection`.
///
/// Guarantees: bound and listening when `init` returns (so `address.port` is the real port, also for port 0);
/// a connection that fails to accept is closed and reported through `onAcceptError`, never leaked.
public final class TCPListener: UVHandle {
    private let onConnection: (TCPConnection) -> Void
    public var onAcceptError: ((UVError) -> Void)?
    public private(set) var address: SocketAddress

    public init(loop: EventLoop, host: String, port: Int, backlog: Int32 = 511,
                onConnection: @escaping (TCPConnection) -> Void) throws(UVError) {
        self.onConnection = onConnection
        self.address = try SocketAddress(host: host, port: port)
        super.init(loop: loop, type: UV_TCP)
        try uvCheck(uv_tcp_init(loop.raw, tcp), "uv_tcp_init")
        adopt()
        do {
            let bindRC = address.withSockaddr { uv_tcp_bind(tcp, $0, 0) }
            try uvCheck(bindRC, "bind \(address)")
            try uvCheck(uv_listen(stream, backlog) { server, status in
                let handle = UnsafeMutableRawPointer(server)?.assumingMemoryBound(to: uv_handle_t.self)
                UVHandle.object(handle, as: TCPListener.self)?.accept(status: status)
            }, "listen \(address)")
            if let bound = localAddress { address = bound }
        } catch {
            close()
            throw error
        }
    }

    private var tcp: UnsafeMutablePointer<uv_tcp_t> { memory.assumingMemoryBound(to: uv_tcp_t.self) }
    private var stream: UnsafeMutablePointer<uv_stream_t> { memory.assumingMemoryBound(to: uv_stream_t.self) }

    private var localAddress: SocketAddress? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutableBytes(of: &storage) { raw in
            uv_tcp_getsockname(tcp, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        return rc == 0 ? SocketAddress(storage: storage) : nil
    }

    private func accept(status: Int32) {
        guard !isClosing else { return }
        if status < 0 {
            onAcceptError?(UVError(code: status, operation: "listen callback"))
            return
        }
        do {
            let connection = try TCPConnection(loop: loop)
            let rc = uv_accept(stream, connection.stream)
            if rc < 0 {
                connection.close()
                onAcceptError?(UVError(code: rc, operation: "uv_accept"))
                return
            }
            onConnection(connection)
        } catch {
            onAcceptError?(error)
        }
    }
}
