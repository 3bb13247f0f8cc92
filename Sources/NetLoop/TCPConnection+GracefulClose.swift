extension TCPConnection {
    /// Ends an answered connection without destroying the answer: stops handing input to its reader,
    /// sends everything queued, shuts the write side down (a FIN after the last byte), then keeps reading and
    /// discarding until the peer closes too or `lingerMs` pass, and only then closes. Closing a socket with
    /// unread input makes the kernel send a reset, which can destroy the answer still on its way (the
    /// "lingering close" of HTTP servers); here every byte the peer sent is read first. `then` runs once the
    /// handle is closed.
    public func closeGracefully(lingerMs: UInt64, then: (() -> Void)? = nil) {
        guard !isClosing else { return }
        stopReading()
        let timer = try? UVTimer(loop: loop)
        let finish: () -> Void = { [weak self] in
            timer?.close()
            self?.close(then: then)
        }
        guard timer != nil else { return finish() }
        try? timer?.start(afterMs: lingerMs) { finish() }
        do {
            try startReading(onData: { _ in }, onEnd: { _ in finish() })
        } catch {
            return finish()
        }
        if isIdle {
            shutdownWrite { if $0 != nil { finish() } }
        } else {
            onDrained = { [weak self] in
                guard let self, self.writeError == nil else { return finish() }
                self.shutdownWrite { if $0 != nil { finish() } }
            }
        }
    }
}
