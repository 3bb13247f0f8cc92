import CLibUV

extension StreamHandle {
    /// Shuts down the write side (`uv_shutdown`: a FIN once every write handed to libuv is out); the
    /// completion gets nil on success. The request is freed in libuv's callback, which also comes (with
    /// `ECANCELED`) when the handle closes first; nothing happens on a closing handle.
    public func shutdownWrite(_ completion: ((UVError?) -> Void)? = nil) {
        guard isOpen else { return }
        let request = ShutdownRequest(completion)
        let rc = uv_shutdown(request.req, stream) { req, status in
            guard let req, let data = req.pointee.data else { return }
            let request = Unmanaged<ShutdownRequest>.fromOpaque(data).takeRetainedValue()
            request.completion?(status < 0 ? UVError(code: status, operation: "shutdown") : nil)
        }
        if rc < 0 {
            Unmanaged.passUnretained(request).release()
            completion?(UVError(code: rc, operation: "uv_shutdown"))
        }
    }
}

/// One `uv_shutdown_t`, kept alive by a retained reference in `req.data` until libuv calls back.
private final class ShutdownRequest {
    let req: UnsafeMutablePointer<uv_shutdown_t>
    let completion: ((UVError?) -> Void)?

    init(_ completion: ((UVError?) -> Void)?) {
        self.completion = completion
        req = .allocate(capacity: 1)
        req.initialize(to: uv_shutdown_t())
        req.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    deinit { req.deallocate() }
}
