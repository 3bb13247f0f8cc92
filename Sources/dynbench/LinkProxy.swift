import NetProtocol
import NetLoop

/// A loopback proxy that behaves like a slow home link: each direction adds a one-way `delayMs`, a uniform
/// jitter of ±`jitterMs` and a bandwidth cap of `rateKbit`, keeping the byte order.
///
/// Guarantees: bytes leave in the order they came, never before `delay - jitter` after they arrived and
/// never faster than the cap (a chunk occupies the link for its size / rate, then travels `delay ± jitter`);
/// a direction holding more than its buffer (the bandwidth-delay product, at least 64 KiB) stops reading
/// from its source until it drains, so the sender feels the link through TCP flow control as over a real
/// bottleneck; either side closing closes both. Everything runs on the given loop.
final class LinkProxy {
    struct Shape {
        var delayMs: Double
        var jitterMs: Double
        var rateKbit: Double

        /// How many bytes a direction may hold before it stops reading.
        var bufferBytes: Int {
            let bdp = rateKbit * 1000 / 8 * (delayMs + jitterMs) / 1000
            return max(64 * 1024, Int(bdp * 2))
        }
    }

    let loop: EventLoop
    let shape: Shape
    let target: SocketAddress
    private var listener: TCPListener?
    private var pumps: [Direction] = []
    private var timer: UVTimer?
    private(set) var address: SocketAddress?

    init(loop: EventLoop, listenHost: String = "127.0.0.1", listenPort: Int, target: SocketAddress, shape: Shape) throws {
        self.loop = loop
        self.shape = shape
        self.target = target
        listener = try TCPListener(loop: loop, host: listenHost, port: listenPort) { [unowned self] in self.accepted($0) }
        address = listener?.address
        let timer = try UVTimer(loop: loop)
        try timer.start(afterMs: 1, repeatMs: 1) { [unowned self] in self.pumpAll() }
        timer.unref()
        self.timer = timer
    }

    func close() {
        listener?.close()
        timer?.close()
        for pump in pumps { pump.closeBoth() }
        pumps.removeAll()
    }

    private func accepted(_ client: TCPConnection) {
        client.setNoDelay(true)
        let server: TCPConnection
        do { server = try TCPConnection(loop: loop) } catch { client.close(); return }
        let up = Direction(from: client, to: server, shape: shape)
        let down = Direction(from: server, to: client, shape: shape)
        up.peer = down
        down.peer = up
        pumps += [up, down]
        server.connect(to: target) { [unowned self] error in
            guard error == nil else { up.closeBoth(); return }
            server.setNoDelay(true)
            up.start()
            down.start()
            _ = self
        }
    }

    private func pumpAll() {
        let now = EventLoop.hrtimeNs
        pumps.removeAll { $0.closed }
        for pump in pumps { pump.release(nowNs: now) }
    }

    /// One direction of one proxied connection.
    final class Direction {
        let from: TCPConnection
        let to: TCPConnection
        let shape: Shape
        weak var peer: Direction?
        private var queue: [(releaseNs: UInt64, bytes: [UInt8])] = []
        private var head = 0
        private var queuedBytes = 0
        private var linkFreeNs: UInt64 = 0
        private var lastReleaseNs: UInt64 = 0
        private var paused = false
        private(set) var closed = false

        init(from: TCPConnection, to: TCPConnection, shape: Shape) {
            self.from = from
            self.to = to
            self.shape = shape
        }

        func start() {
            do {
                try from.startReading(onData: { [unowned self] in self.arrived($0) },
                                      onEnd: { [unowned self] _ in self.closeBoth() })
            } catch {
                closeBoth()
            }
        }

        private func arrived(_ bytes: UnsafeRawBufferPointer) {
            let now = EventLoop.hrtimeNs
            // The link serialises the chunk at the cap, then it travels delay ± jitter, never overtaking.
            let transmitNs = UInt64(Double(bytes.count) * 8 / (shape.rateKbit * 1000) * 1e9)
            linkFreeNs = max(linkFreeNs, now) + transmitNs
            let jitter = shape.jitterMs > 0 ? Double.random(in: -shape.jitterMs...shape.jitterMs) : 0
            let travelNs = UInt64(max(0, shape.delayMs + jitter) * 1e6)
            let release = max(linkFreeNs + travelNs, lastReleaseNs)
            lastReleaseNs = release
            queue.append((release, [UInt8](bytes)))
            queuedBytes += bytes.count
            if queuedBytes > shape.bufferBytes, !paused {
                paused = true
                from.pauseReadingStream()
            }
        }

        func release(nowNs: UInt64) {
            guard !closed else { return }
            var out: [UInt8] = []
            while head < queue.count, queue[head].releaseNs <= nowNs {
                out += queue[head].bytes
                queuedBytes -= queue[head].bytes.count
                head += 1
            }
            if head > 1024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            if !out.isEmpty { to.write(out) }
            if paused, queuedBytes < shape.bufferBytes / 2 {
                paused = false
                try? from.resumeReadingStream()
            }
        }

        func closeBoth() {
            guard !closed else { return }
            closed = true
            from.closeAfterFlush(timeoutMs: 1000)
            to.closeAfterFlush(timeoutMs: 1000)
            peer?.closeBoth()
        }
    }
}
