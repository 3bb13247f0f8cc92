import ArgumentParser
import Foundation
import Histogram
import NetProtocol

/// One load measurement: sets up the world through an admin connection, then N clients read snapshots on
/// one libuv loop while client 0 also taps and times the first snapshot after each ack.
final class LoadRun {
    let port: Int, clientCount: Int, bodies: Int, seconds: Double, warmup: Double, serverPID: Int32?
    let loop: EventLoop
    private var readers: [BenchReader] = []
    private var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    private(set) var measuring = false
    private var snapshotHz = 30.0
    private(set) var bodyIDs: [Int] = []

    init(port: Int, clients: Int, bodies: Int, seconds: Double, warmup: Double, serverPID: Int32?) throws {
        self.port = port
        self.clientCount = clients
        self.bodies = bodies
        self.seconds = seconds
        self.warmup = warmup
        self.serverPID = serverPID
        self.loop = try EventLoop()
    }

    func run() throws -> String {
        let address = try SocketAddress(host: "127.0.0.1", port: port)
        try populate(address)
        for i in 0..<clientCount {
            readers.append(try BenchReader(loop: loop, address: address, prober: i == 0, run: self))
        }
        var cpuStart = 0.0, wallStart: UInt64 = 0
        let phase = try UVTimer(loop: loop)
        try phase.start(afterMs: UInt64(warmup * 1000)) { [unowned self] in
            self.measuring = true
            readers.forEach { $0.resetCounters() }
            cpuStart = serverPID.flatMap(processCPUSeconds) ?? 0
            wallStart = EventLoop.hrtimeNs
            try? phase.start(afterMs: UInt64(seconds * 1000)) { [unowned self] in
                self.measuring = false
                phase.close()
                readers.forEach { $0.finish() }
            }
        }
        let tapper = try UVTimer(loop: loop)
        try tapper.start(afterMs: 100, repeatMs: 100) { [unowned self] in
            if readers.allSatisfy(\.done) { tapper.close() } else { readers.first?.tap(body: bodyIDs.randomElement()) }
        }
        loop.run()
        let wall = Double(EventLoop.hrtimeNs - wallStart) * 1e-9
        let cpu = serverPID.flatMap(processCPUSeconds).map { ($0 - cpuStart) / wall * 100 }
        let rates = readers.map { Double($0.snapshots) / seconds }.sorted()
        let bytes = readers.reduce(0) { $0 + $1.bytes }
        _ = loop.close()
        func r(_ x: Double, _ places: Double = 100) -> Double { (x * places).rounded() / places }
        var fields: [String] = [
            "\"bench\":\"server\"", "\"clients\":\(clientCount)", "\"bodies\":\(bodies)", "\"seconds\":\(seconds)",
            "\"snapshot_hz\":\(snapshotHz)",
            "\"snapshot_rate_min\":\(r(rates.first ?? 0))", "\"snapshot_rate_median\":\(r(rates[rates.count / 2]))",
            "\"snapshot_fraction_min\":\(r((rates.first ?? 0) / snapshotHz, 1000))",
            "\"bytes_per_s\":\(Int(Double(bytes) / seconds))",
            "\"taps\":\(latency.totalCount)",
            "\"tap_to_visible_ms_p50\":\(r(Double(latency.valueAtPercentile(50)) / 1000))",
            "\"tap_to_visible_ms_p99\":\(r(Double(latency.valueAtPercentile(99)) / 1000))",
        ]
        if let cpu { fields.append("\"server_cpu_percent\":\(r(cpu, 10))") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Zero gravity, elastic items flying in a big room: a world that never comes to rest.
    private func populate(_ address: SocketAddress) throws {
        let admin = try TCPConnection(loop: loop)
        var framer = LineFramer(maxLineBytes: 64 << 20)
        var pending = bodies + 1
        var failure: String?
        admin.connect(to: address) { [unowned self] error in
            if let error { failure = "connect: \(error)"; admin.close(); return }
            var lines: [UInt8] = []
            lines += ClientMessage(id: .number("0"), .gravity(.magnitude(0))).encoded()
            var rng = SystemRandomNumberGenerator()
            for i in 0..<bodies {
                var patch = PropertyPatch()
                patch.elasticity = 1
                let shape: ShapeName = i % 2 == 0 ? .rect : .ellipse
                lines += ClientMessage(id: .number("\(i + 1)"), .spawn(
                    shape: shape, width: 20, height: 20, x: Double.random(in: 50...3950, using: &rng),
                    y: Double.random(in: 50...2950, using: &rng), angle: nil,
                    vx: Double.random(in: -300...300, using: &rng), vy: Double.random(in: -300...300, using: &rng),
                    patch: patch)).encoded()
            }
            admin.write(lines)
            try? admin.startReading(onData: { bytes in
                framer.feed(bytes) { event in
                    guard case .line(let line) = event else { return }
                    switch ServerMessage.decode(line) {
                    case .welcome(let w)?: self.snapshotHz = w.snapshotHz
                    case .ack(_, let fields)?:
                        pending -= 1
                        if let body = fields.first(where: { $0.0 == "body" })?.1, case .number(let id) = body {
                            self.bodyIDs.append(Int(id))
                        }
                    case .error(let e)?: failure = "\(e.code.rawValue): \(e.message)"; pending -= 1
                    default: break
                    }
                }
                if pending == 0 { admin.close() }
            }, onEnd: { _ in admin.close() })
        }
        loop.run()
        if let failure { throw ValidationError("setting up the world failed: \(failure)") }
    }

    func recordLatency(ns: UInt64) {
        guard measuring else { return }
        _ = latency.record(ns / 1000)
    }
}

/// One benchmark client: counts snapshots and bytes; the prober also taps and times its taps.
final class BenchReader {
    let connection: TCPConnection
    let prober: Bool
    unowned let run: LoadRun
    private var framer = LineFramer(maxLineBytes: 64 << 20)
    private(set) var snapshots = 0
    private(set) var bytes = 0
    private(set) var done = false
    private var tapSentAt: UInt64?
    private var ackSeen = false
    private var nextID = 1

    init(loop: EventLoop, address: SocketAddress, prober: Bool, run: LoadRun) throws {
        self.connection = try TCPConnection(loop: loop)
        self.prober = prober
        self.run = run
        connection.connect(to: address) { [unowned self] error in
            guard error == nil else { done = true; connection.close(); return }
            try? connection.startReading(onData: { [unowned self] in self.received($0) },
                                         onEnd: { [unowned self] _ in done = true; connection.close() })
        }
    }

    private static let snapshotPrefix = Array("{\"type\":\"snapshot\"".utf8)

    private func received(_ data: UnsafeRawBufferPointer) {
        if run.measuring { bytes += data.count }
        framer.feed(data) { event in
            guard case .line(let line) = event else { return }
            if line.starts(with: Self.snapshotPrefix) {
                if run.measuring { snapshots += 1 }
                if ackSeen, let sent = tapSentAt {
                    run.recordLatency(ns: EventLoop.hrtimeNs - sent)
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

    func resetCounters() {
        snapshots = 0
        bytes = 0
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
