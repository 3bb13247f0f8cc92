import ArgumentParser
import Foundation
import Histogram
import NetProtocol
import NetLoop

/// One load measurement: sets up the world through an admin connection, then N clients (full snapshots or
/// compact frames, optionally through a simulated link) read on one libuv loop while one client of each
/// kind also taps and times the first state after each ack; an optional flooder sends tap lines.
final class LoadRun {
    struct Options {
        var compactFraction = 0.0
        var packedFraction = 0.0
        var movingFraction = 1.0
        var link: LinkProxy.Shape?
        var interpBufferMs = 100.0
        var floodLinesPerS = 0
        /// The server's HTTP port: its `dyn_snapshot_encode_seconds_total` is read before and after measuring.
        var metricsPort: Int?
    }

    let port: Int, clientCount: Int, bodies: Int, seconds: Double, warmup: Double, serverPID: Int32?
    let options: Options
    let loop: EventLoop
    private var readers: [BenchReader] = []
    private var latency: [Subscription.Snapshots: Histogram<UInt64>] = Dictionary(uniqueKeysWithValues:
        [Subscription.Snapshots.full, .compact, .packed].map {
            ($0, Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        })
    /// Bodies in flight (every frame lists each of them).
    private var movingBodies: Int { Int((Double(bodies) * options.movingFraction).rounded()) }
    private(set) var measuring = false
    private(set) var snapshotHz = 30.0
    private(set) var tickHz = 60.0
    private(set) var bodyIDs: [Int] = []
    private var proxy: LinkProxy?
    private var flooder: BenchFlooder?

    init(port: Int, clients: Int, bodies: Int, seconds: Double, warmup: Double, serverPID: Int32?,
         options: Options = Options()) throws {
        self.port = port
        self.clientCount = clients
        self.bodies = bodies
        self.seconds = seconds
        self.warmup = warmup
        self.serverPID = serverPID
        self.options = options
        self.loop = try EventLoop()
    }

    func run() throws -> String {
        let direct = try SocketAddress(host: "127.0.0.1", port: port)
        try populate(direct)
        var address = direct
        if let shape = options.link {
            let proxy = try LinkProxy(loop: loop, listenPort: 0, target: direct, shape: shape)
            self.proxy = proxy
            address = proxy.address ?? direct
        }
        let compactCount = Int((Double(clientCount) * options.compactFraction).rounded())
        let packedCount = min(clientCount - compactCount, Int((Double(clientCount) * options.packedFraction).rounded()))
        for i in 0..<clientCount {
            let kind: Subscription.Snapshots = i < compactCount ? .compact : i < compactCount + packedCount ? .packed : .full
            // One prober per kind: the first compact client, the first packed one and the first full one.
            let prober = i == 0 || i == compactCount || i == compactCount + packedCount
            readers.append(try BenchReader(loop: loop, address: address, kind: kind, prober: prober, run: self))
        }
        if options.floodLinesPerS > 0 {
            flooder = try BenchFlooder(loop: loop, address: direct, linesPerSecond: options.floodLinesPerS, run: self)
        }
        var cpuStart = 0.0, wallStart: UInt64 = 0, tickStart: UInt64 = 0, tickEnd: UInt64 = 0
        var cpuEnd: Double?
        var encodeStart: [String: Double]?, encodeEnd: [String: Double]?
        let phase = try UVTimer(loop: loop)
        try phase.start(afterMs: UInt64(warmup * 1000)) { [unowned self] in
            self.measuring = true
            readers.forEach { $0.resetCounters() }
            flooder?.resetCounters()
            cpuStart = serverPID.flatMap(processCPUSeconds) ?? 0
            encodeStart = options.metricsPort.flatMap(snapshotEncodeSeconds)
            tickStart = readers.map(\.lastTick).max() ?? 0
            wallStart = EventLoop.hrtimeNs
            try? phase.start(afterMs: UInt64(seconds * 1000)) { [unowned self] in
                self.measuring = false
                tickEnd = readers.map(\.lastTick).max() ?? 0
                cpuEnd = serverPID.flatMap(processCPUSeconds)
                encodeEnd = options.metricsPort.flatMap(snapshotEncodeSeconds)
                phase.close()
                readers.forEach { $0.finish() }
                flooder?.finish()
                proxy?.close()
            }
        }
        let tapper = try UVTimer(loop: loop)
        try tapper.start(afterMs: 100, repeatMs: 100) { [unowned self] in
            if readers.allSatisfy(\.done) {
                tapper.close()
            } else {
                for reader in readers where reader.prober { reader.tap(body: bodyIDs.randomElement()) }
            }
        }
        loop.run()
        let wall = Double(EventLoop.hrtimeNs - wallStart) * 1e-9
        let cpu = serverPID.flatMap(processCPUSeconds).map { ($0 - cpuStart) / wall * 100 }
        // The server's CPU over the ticks it ran while measured: a load-robust figure (a busy machine stretches
        // the wall time and may make the server skip frames, but each tick's work stays the same).
        let cpuSeconds = cpuEnd.map { $0 - cpuStart }
        let ticks = tickEnd > tickStart ? tickEnd - tickStart : 0
        _ = loop.close()
        var fields: [String] = [
            "\"bench\":\"server\"", "\"clients\":\(clientCount)", "\"bodies\":\(bodies)", "\"seconds\":\(seconds)",
            "\"snapshot_hz\":\(snapshotHz)", "\"moving_fraction\":\(options.movingFraction)",
        ]
        if let link = options.link {
            fields.append("\"link\":{\"delay_ms\":\(link.delayMs),\"jitter_ms\":\(link.jitterMs),\"rate_kbit\":\(link.rateKbit)}")
        }
        for kind: Subscription.Snapshots in [.full, .compact, .packed] {
            let group = readers.filter { $0.kind == kind }
            guard !group.isEmpty else { continue }
            fields.append("\"\(kind.rawValue)\":" + summary(group, latency: latency[kind]!))
        }
        if let cpu { fields.append("\"server_cpu_percent\":\(r(cpu, 10))") }
        if let cpuSeconds {
            fields.append("\"server_cpu_seconds\":\(r(cpuSeconds, 1000)),\"server_ticks\":\(ticks)")
            if ticks > 0 { fields.append("\"server_cpu_ms_per_tick\":\(r(cpuSeconds * 1000 / Double(ticks), 1000))") }
        }
        // Each mode's encoding alone (dyn_snapshot_encode_seconds_total): thread CPU, so physics and load do not blur it.
        if let encodeStart, let encodeEnd {
            let modes = ["full", "compact", "packed"].map { mode in
                let spent = (encodeEnd[mode] ?? 0) - (encodeStart[mode] ?? 0)
                return "\"\(mode)\":{\"seconds\":\(r(spent, 1e6))" + (ticks > 0 ? ",\"ms_per_tick\":\(r(spent * 1000 / Double(ticks), 1e4))" : "") + "}"
            }
            fields.append("\"server_encode\":{" + modes.joined(separator: ",") + "}")
        }
        if let flooder {
            fields.append("\"flooder\":{\"lines_per_s_offered\":\(options.floodLinesPerS),\"sent_bytes_per_s\":\(Int(Double(flooder.sentBytes) / seconds)),\"received_bytes_per_s\":\(Int(Double(flooder.receivedBytes) / seconds)),\"rate_limited\":\(flooder.rateLimited)}")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private func r(_ x: Double, _ places: Double = 100) -> Double { (x * places).rounded() / places }

    /// Per kind of client: how many, the frame rate (min, median), the share of frames that arrived in
    /// time for the interpolation buffer (min, median), bytes/s per client (median, max), tap-to-visible.
    private func summary(_ group: [BenchReader], latency: Histogram<UInt64>) -> String {
        let rates = group.map { Double($0.snapshots) / seconds }.sorted()
        let expected = seconds * snapshotHz
        let ready = group.map { Double($0.interpolationReady(bufferMs: options.interpBufferMs, tickHz: tickHz)) / expected }.sorted()
        let bytes = group.map { Double($0.bytes) / seconds }.sorted()
        var parts = [
            "\"clients\":\(group.count)",
            "\"frame_rate_min\":\(r(rates.first ?? 0))", "\"frame_rate_median\":\(r(rates[rates.count / 2]))",
            "\"frame_fraction_min\":\(r((rates.first ?? 0) / snapshotHz, 1000))",
            "\"interp_ready_fraction_min\":\(r(ready.first ?? 0, 1000))",
            "\"interp_ready_fraction_median\":\(r(ready[ready.count / 2], 1000))",
            "\"bytes_per_s_per_client_median\":\(Int(bytes[bytes.count / 2]))",
            "\"bytes_per_s_per_client_max\":\(Int(bytes.last ?? 0))",
            // Every byte a client read, over the moving bodies its frames carried (all of them move).
            "\"bytes_per_moving_body\":\(r(bytes[bytes.count / 2] / max(rates[rates.count / 2] * Double(movingBodies), 1), 10))",
            "\"taps\":\(latency.totalCount)",
        ]
        if latency.totalCount > 0 {
            parts.append("\"tap_to_visible_ms_p50\":\(r(Double(latency.valueAtPercentile(50)) / 1000))")
            parts.append("\"tap_to_visible_ms_p99\":\(r(Double(latency.valueAtPercentile(99)) / 1000))")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// Zero gravity, elastic items in a big room, none overlapping; the moving share flies and never comes to
    /// rest, the others rest until hit.
    private func populate(_ address: SocketAddress) throws {
        let admin = try TCPConnection(loop: loop)
        var framer = LineFramer(maxLineBytes: 64 << 20)
        var pending = bodies + 1
        var failure: String?
        let moving = Int((Double(bodies) * options.movingFraction).rounded())
        admin.connect(to: address) { [unowned self] error in
            if let error { failure = "connect: \(error)"; admin.close(); return }
            var lines: [UInt8] = []
            lines += ClientMessage(id: .number("0"), .gravity(.magnitude(0))).encoded()
            var rng = SystemRandomNumberGenerator()
            // One body per cell of a grid, placed at random inside it: nothing overlaps at the start, so
            // bodies spawned at rest stay at rest until a moving one hits them.
            let columns = max(1, Int((Double(bodies) * 4 / 3).squareRoot().rounded(.up)))
            let rows = max(1, (bodies + columns - 1) / columns)
            let cellW = 3900 / Double(columns), cellH = 2900 / Double(rows)
            for i in 0..<bodies {
                let still = i >= moving
                var patch = PropertyPatch()
                // Resting bodies are scenery (anchored): moving ones bounce off them, and they stay at rest.
                patch.elasticity = 1
                if still { patch.anchored = true }
                let shape: ShapeName = i % 2 == 0 ? .rect : .ellipse
                lines += ClientMessage(id: .number("\(i + 1)"), .spawn(
                    shape: shape, width: 20, height: 20,
                    x: 50 + Double(i % columns) * cellW + Double.random(in: 0...max(0, cellW - 30), using: &rng),
                    y: 50 + Double(i / columns) * cellH + Double.random(in: 0...max(0, cellH - 30), using: &rng), angle: nil,
                    vx: still ? 0 : Double.random(in: -300...300, using: &rng),
                    vy: still ? 0 : Double.random(in: -300...300, using: &rng),
                    patch: patch)).encoded()
            }
            admin.write(lines)
            try? admin.startReading(onData: { bytes in
                framer.feed(bytes) { event in
                    guard case .line(let line) = event else { return }
                    switch ServerMessage.decode(line) {
                    case .welcome(let w)?:
                        self.snapshotHz = w.snapshotHz
                        self.tickHz = w.tickHz
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
        // Only moving bodies are tapped, so that a tap in a resting world still shows up as motion.
        bodyIDs = Array(bodyIDs.prefix(max(moving, 1)))
    }

    func recordLatency(ns: UInt64, kind: Subscription.Snapshots) {
        guard measuring else { return }
        _ = latency[kind]!.record(ns / 1000)
    }
}
