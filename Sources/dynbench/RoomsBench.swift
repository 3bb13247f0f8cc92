import ArgumentParser
import Foundation
import Histogram
import NetProtocol
import NetLoop

/// `dynbench rooms`: the rooms of a release `dynserver` (docs/PROTOCOL.md, Rooms).
/// `--mode busy`: R rooms, each a hot gas of B bodies that never rests, on `--threads 1` and then on
/// `--threads N`: total room ticks per second each way, and the ratio. `--mode rest`: R rooms of the default
/// scene, each with one compact client, once at rest: the server's CPU and RSS, and join → keyframe latency.
/// `--mode heavy`: one heavy room beside main (RoomsBench+Heavy.swift).
struct RoomsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rooms",
        abstract: "Busy rooms on 1 vs N threads (ticks/s), or many rooms at rest (CPU, RSS, join latency); one JSON line.")

    enum Mode: String, ExpressibleByArgument { case busy, rest, heavy }

    @Option(help: "busy, rest or heavy (one heavy room beside main: RoomsBench+Heavy.swift).") var mode: Mode = .busy
    @Option(help: "Rooms.") var rooms = 2
    @Option(help: "busy: moving bodies per room.") var bodies = 6000
    @Option(help: "busy, heavy: the thread counts to compare, comma-separated (heavy: \"default\" passes none).") var threads = "1,2"
    @Option(help: "heavy: the ticks of the held room's step.") var steps = 600
    @Option(help: "busy: runs per thread count (--runs), interleaved; the best counts (other load on the machine only slows a run down).")
    var runs = 1
    @Option(help: "Measured seconds.") var seconds: Double = 10
    @Option(help: "rest: at most this many seconds to wait for every room to come to rest before measuring.") var settle: Double = 300
    @Option(help: "The dynserver binary (default: next to dynbench).") var serverPath: String?

    func run() throws {
        switch mode {
        case .busy: try busy()
        case .rest: try rest()
        case .heavy: try heavy()
        }
    }

    private func start(_ extra: [String]) throws -> BenchServer {
        try BenchServer.start(path: serverPath, clients: rooms + 8,
                              limits: ["--rate", "1000000", "--burst", "1000000", "--max-rooms", "\(rooms + 2)",
                                       "--max-bodies", "\(max(bodies, 100) + 10)"] + extra)
    }

    private func busy() throws {
        var results: [(Int, Double)] = []
        let counts = threads.split(separator: ",").compactMap { Int($0) }
        for threadCount in (0..<max(1, runs)).flatMap({ _ in counts }) {
            let server = try start(["--threads", "\(threadCount)"])
            defer { server.stop() }
            var clients: [BenchSocket] = []
            for room in 0..<rooms {
                let client = try BenchSocket(port: server.port)
                try client.send(#"{"type":"subscribe","snapshots":"none","notices":false}"#)
                try client.send(#"{"type":"join","room":"busy\#(room)","scene":"empty","id":1}"#)
                try client.send(Self.hotGas(bodies: bodies))
                guard client.tick(id: 2, timeout: 120) != nil else { throw ValidationError("room busy\(room) did not answer") }
                clients.append(client)
            }
            usleep(1_000_000)
            let before = try clients.enumerated().map { i, c in
                guard let t = c.tick(id: 10 + i) else { throw ValidationError("no tick") }
                return t
            }
            let startNs = EventLoop.hrtimeNs
            let cpuBefore = processCPUSeconds(server.pid) ?? 0
            usleep(UInt32(seconds * 1e6))
            let after = try clients.enumerated().map { i, c in
                guard let t = c.tick(id: 100 + i) else { throw ValidationError("no tick") }
                return t
            }
            let elapsed = Double(EventLoop.hrtimeNs - startNs) / 1e9
            let cpu = ((processCPUSeconds(server.pid) ?? 0) - cpuBefore) / elapsed
            let ticks = zip(before, after).map { Double($1 - $0) }.reduce(0, +)
            results.append((threadCount, ticks / elapsed))
            FileHandle.standardError.write(Data("threads \(threadCount): \(String(format: "%.1f", ticks / elapsed)) room ticks/s, server CPU \(String(format: "%.2f", cpu)) cores\n".utf8))
        }
        let best = counts.map { count in (count, results.filter { $0.0 == count }.map(\.1).max() ?? 0) }
        let base = best.first?.1 ?? 0
        let entries = best.map { "{\"threads\":\($0.0),\"room_ticks_per_s\":\(Self.round($0.1)),\"speedup\":\(Self.round(base > 0 ? $0.1 / base : 0))}" }
        print("{\"bench\":\"rooms\",\"mode\":\"busy\",\"rooms\":\(rooms),\"bodies_per_room\":\(bodies),\"runs_each\":\(max(1, runs)),\"best\":[\(entries.joined(separator: ","))]}")
    }

    /// One line of spawns: a gas of small elastic bodies with no gravity, which never comes to rest.
    static func hotGas(bodies: Int) -> String {
        var rng = SystemRandomNumberGenerator()
        var lines = #"{"type":"gravity","magnitude":0}"# + "\n"
        let columns = max(1, Int((Double(bodies) * 4 / 3).squareRoot().rounded(.up)))
        let rowCount = max(1, (bodies + columns - 1) / columns)
        let cellW = 780 / Double(columns), cellH = 580 / Double(rowCount)
        let size = max(2, min(cellW, cellH) * 0.5)
        for i in 0..<bodies {
            let x = 10 + Double(i % columns) * cellW + cellW / 2, y = 10 + Double(i / columns) * cellH + cellH / 2
            lines += #"{"type":"spawn","shape":"rect","width":\#(size),"height":\#(size),"x":\#(x),"y":\#(y),"#
                + #""vx":\#(Double.random(in: -200...200, using: &rng)),"vy":\#(Double.random(in: -200...200, using: &rng)),"elasticity":1}"#
                + "\n"
        }
        return String(lines.dropLast())
    }

    private func rest() throws {
        let server = try start([])
        defer { server.stop() }
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var clients: [BenchSocket] = []
        for room in 0..<rooms {
            let client = try BenchSocket(port: server.port)
            try client.send(#"{"type":"subscribe","snapshots":"compact","notices":false}"#)
            guard client.waitFor(timeout: 10, { if case .ack = $0 { true } else { false } }) != nil else {
                throw ValidationError("no subscribe ack")
            }
            let sent = EventLoop.hrtimeNs
            try client.send(#"{"type":"join","room":"r\#(room)","scene":"default","id":1}"#)
            guard Self.keyframeAfterScene(client) else { throw ValidationError("no keyframe after joining r\(room)") }
            latency.record((EventLoop.hrtimeNs - sent) / 1000)
            clients.append(client)
        }
        // The default scene comes to rest after about 10 simulated seconds; wait (reading, so that no client
        // stalls) until every room says `paused`.
        let probe = try BenchSocket(port: server.port)
        let settleStart = EventLoop.hrtimeNs
        var atRest = 0
        var probeID = 100
        while Double(EventLoop.hrtimeNs - settleStart) / 1e9 < settle {
            for client in clients { client.drain() }
            probeID += 1
            // `main` (the empty scene) is listed and at rest too.
            atRest = Self.roomsAtRest(probe, id: probeID) - 1
            if atRest >= rooms { break }
            usleep(500_000)
        }
        let settled = Double(EventLoop.hrtimeNs - settleStart) / 1e9
        for client in clients { client.drain() }
        let cpuBefore = processCPUSeconds(server.pid) ?? 0
        let startNs = EventLoop.hrtimeNs
        usleep(UInt32(seconds * 1e6))
        let elapsed = Double(EventLoop.hrtimeNs - startNs) / 1e9
        let cpu = ((processCPUSeconds(server.pid) ?? 0) - cpuBefore) / elapsed
        let rss = processRSSBytes(server.pid) ?? 0
        // Join → keyframe again, now that every room rests: each client joins its own room once more.
        var rejoin = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for (room, client) in clients.enumerated() {
            client.drain()
            let sent = EventLoop.hrtimeNs
            try client.send(#"{"type":"join","room":"r\#(room)","id":2}"#)
            guard Self.keyframeAfterScene(client) else { throw ValidationError("no keyframe after rejoining r\(room)") }
            rejoin.record((EventLoop.hrtimeNs - sent) / 1000)
        }
        print("{\"bench\":\"rooms\",\"mode\":\"rest\",\"rooms\":\(rooms),\"rooms_at_rest\":\(atRest),\"settle_s\":\(Self.round(settled)),"
              + "\"server_cpu_cores\":\(Self.round(cpu)),\"rss_mib\":\(Self.round(rss / 1_048_576)),"
              + "\"create_join_keyframe_ms\":\(Self.percentiles(latency)),\"rest_join_keyframe_ms\":\(Self.percentiles(rejoin))}")
    }

    private static func keyframeAfterScene(_ client: BenchSocket) -> Bool {
        var sawScene = false
        return client.waitFor(timeout: 10, { message in
            if case .scene = message { sawScene = true }
            if case .frame(let frame) = message, sawScene { return frame.isKeyframe }
            return false
        }) != nil
    }

    /// How many rooms the `rooms` list says are at rest.
    private static func roomsAtRest(_ probe: BenchSocket, id: Int) -> Int {
        try? probe.send(#"{"type":"rooms","id":\#(id)}"#)
        guard case .ack(_, let fields)? = probe.waitFor(timeout: 30, { if case .ack(let echo, _) = $0 { echo == .number(String(id)) } else { false } }),
              case .array(let list)? = fields.first(where: { $0.0 == "rooms" })?.1 else { return 0 }
        return list.filter { if case .object(let m) = $0 { m.contains { $0.0 == "paused" && $0.1 == .bool(true) } } else { false } }.count
    }

    private static func percentiles(_ histogram: Histogram<UInt64>) -> String {
        "{\"p50\":\(ms(histogram, 50)),\"p99\":\(ms(histogram, 99)),\"max\":\(round(Double(histogram.max) / 1000))}"
    }

    private static func ms(_ histogram: Histogram<UInt64>, _ percentile: Double) -> Double {
        round(Double(histogram.valueAtPercentile(percentile)) / 1000)
    }

    static func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
