import NetProtocol
import NetLoop

/// One benchmark client: counts states (snapshots or frames), bytes and when each tick arrived; a prober
/// also taps and times the first state after each ack.
final class BenchReader {
    let connection: TCPConnection
    let prober: Bool
    /// What it subscribes to: full snapshots, compact frames or packed frames (as `packed` lines).
    let kind: Subscription.Snapshots
    unowned let run: LoadRun
    private var framer = LineFramer(maxLineBytes: 64 << 20)
    private(set) var snapshots = 0
    private(set) var bytes = 0
    private(set) var done = false
    /// The tick of the newest state read, measuring or not.
    private(set) var lastTick: UInt64 = 0
    private var arrivals: [(tick: UInt64, ns: UInt64)] = []
    private var tapSentAt: UInt64?
    private var ackSeen = false
    private var nextID = 1

    init(loop: EventLoop, address: SocketAddress, kind: Subscription.Snapshots, prober: Bool, run: LoadRun) throws {
        self.connection = try TCPConnection(loop: loop)
        self.prober = prober
        self.kind = kind
        self.run = run
        connection.connect(to: address) { [unowned self] error in
            guard error == nil else { done = true; connection.close(); return }
            connection.setNoDelay(true)
            if kind != .full { connection.write(ClientMessage(.subscribe(SubscriptionChange(snapshots: kind))).encoded()) }
            try? connection.startReading(onData: { [unowned self] in self.received($0) },
                                         onEnd: { [unowned self] _ in done = true; connection.close() })
        }
    }

    private static let snapshotPrefix = Array("{\"type\":\"snapshot\",\"tick\":".utf8)
    private static let framePrefix = Array("{\"type\":\"frame\",\"tick\":".utf8)
    private static let packedPrefix = Array("{\"type\":\"packed\",\"tick\":".utf8)

    private func received(_ data: UnsafeRawBufferPointer) {
        if run.measuring { bytes += data.count }
        let now = EventLoop.hrtimeNs
        framer.feed(data) { event in
            guard case .line(let line) = event else { return }
            let prefix = kind == .packed ? Self.packedPrefix : kind == .compact ? Self.framePrefix : Self.snapshotPrefix
            if line.starts(with: prefix) {
                let tick = Self.tick(line, after: prefix.count)
                lastTick = max(lastTick, tick)
                if run.measuring {
                    snapshots += 1
                    arrivals.append((tick, now))
                }
                if ackSeen, let sent = tapSentAt {
                    run.recordLatency(ns: now - sent, kind: kind)
                    tapSentAt = nil
                    ackSeen = false
                }
            } else if prober, tapSentAt != nil {
                switch ServerMessage.decode(line) {
                case .ack?: ackSeen = true
                case .error?: tapSentAt = nil   // the body went away: no latency sample
                default: break
                }
            }
        }
    }

    private static func tick(_ line: UnsafeRawBufferPointer, after offset: Int) -> UInt64 {
        var value: UInt64 = 0
        var i = offset
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39 {
            value = value * 10 + UInt64(line[i] - 0x30)
            i += 1
        }
        return value
    }

    /// States that arrived no later than `bufferMs` behind the earliest one relative to its tick: those a
    /// client rendering `bufferMs` in the past has in time to interpolate.
    func interpolationReady(bufferMs: Double, tickHz: Double) -> Int {
        guard !arrivals.isEmpty else { return 0 }
        let tickNs = 1e9 / tickHz
        let offsets = arrivals.map { Double($0.ns) - Double($0.tick) * tickNs }
        let best = offsets.min()!
        return offsets.filter { $0 - best <= bufferMs * 1e6 }.count
    }

    func resetCounters() {
        snapshots = 0
        bytes = 0
        arrivals.removeAll()
    }

    func tap(body: Int?) {
        guard !done, tapSentAt == nil, let body else { return }
        tapSentAt = EventLoop.hrtimeNs
        connection.write(ClientMessage(id: .number("\(nextID)"), .tap(x: 2000, y: 1500, body: body, mode: .instantaneous)).encoded())
        nextID += 1
    }

    func finish() {
        done = true
        connection.close()
    }
}

/// A client that sends `linesPerSecond` tap lines (without ids, so no acks) in 10 ms batches as fast as the
/// kernel takes them, and counts what it sent and what came back.
final class BenchFlooder {
    let connection: TCPConnection
    unowned let run: LoadRun
    private(set) var sentBytes = 0
    private(set) var receivedBytes = 0
    private(set) var rateLimited = 0
    private var timer: UVTimer?
    private var framer = LineFramer(maxLineBytes: 64 << 20)

    init(loop: EventLoop, address: SocketAddress, linesPerSecond: Int, run: LoadRun) throws {
        connection = try TCPConnection(loop: loop)
        self.run = run
        let line = Array(#"{"type":"tap","x":2000,"y":1500,"mode":"instantaneous"}"#.utf8) + [0x0A]
        let batch = [UInt8]([[UInt8]](repeating: line, count: max(1, linesPerSecond / 100)).joined())
        connection.connect(to: address) { [unowned self] error in
            guard error == nil else { return }
            connection.write(ClientMessage(.subscribe(SubscriptionChange(snapshots: .off))).encoded())
            try? connection.startReading(onData: { [unowned self] data in
                if self.run.measuring { receivedBytes += data.count }
                framer.feed(data) { event in
                    if case .line(let l) = event, self.run.measuring,
                       l.starts(with: Array(#"{"type":"error","code":"rate_limited""#.utf8)) { rateLimited += 1 }
                }
            }, onEnd: { [unowned self] _ in connection.close() })
            let timer = try? UVTimer(loop: loop)
            try? timer?.start(afterMs: 10, repeatMs: 10) { [unowned self] in
                // Offered at the rate; what the kernel does not take now is dropped (TCP backpressure).
                guard connection.pendingBytes < batch.count else { return }
                connection.write(batch)
                if self.run.measuring { sentBytes += batch.count }
            }
            self.timer = timer
        }
    }

    func resetCounters() {
        sentBytes = 0
        receivedBytes = 0
        rateLimited = 0
    }

    func finish() {
        timer?.close()
        connection.close()
    }
}
