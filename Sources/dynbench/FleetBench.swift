import ArgumentParser
import Foundation
import Histogram
import NetProtocol
import NetLoop

/// `dynbench fleet`: three release `dynserver`s sharing rooms through a real `redis-server` (docs/DEPLOY.md).
/// Joins through redirects: one client joins rooms spread over the three servers from whichever server it is
/// on, following each `redirect` to the owner (a new connection and a `hello` with the room), as `dynclient`
/// does: joins per second and the latency of each. Failover: a room on a fourth server, which is then killed
/// with SIGKILL; a client on another server asks for the room every 50 ms until the join succeeds: the time
/// from the kill, median and worst of `--runs`.
struct FleetBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Joins per second through redirects across three servers, and failover time after SIGKILL; one JSON line.")

    @Option(help: "Joins measured (each one through a redirect).") var joins = 300
    @Option(help: "Rooms spread over the three servers.") var rooms = 30
    @Option(help: "Failover runs (SIGKILL of the room's owner each time).") var runs = 5
    @Option(help: "--state-interval of the servers.") var stateInterval: Double = 0.5
    @Option(help: "The dynserver binary (default: next to dynbench).") var serverPath: String?
    @Option(help: "The redis-server binary (default: on PATH).") var redisServer = "redis-server"

    func run() throws {
        let redis = try startRedis()
        defer { kill(redis.process.processIdentifier, SIGKILL); redis.process.waitUntilExit() }
        let servers = try (0..<3).map { _ in try startServer(redis: redis.port) }
        defer { servers.forEach { $0.stop() } }
        // Rooms spread over the servers: room i is created on server i % 3.
        for i in 0..<rooms {
            let maker = try BenchSocket(port: servers[i % 3].port)
            guard case .ack? = try joinAnswer(maker, room: "j\(i)", id: 1) else { throw ValidationError("cannot create j\(i)") }
        }
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        let startNs = EventLoop.hrtimeNs
        for n in 0..<joins {
            let room = n % rooms
            let entry = servers[(room + 1 + n % 2) % 3]   // never the owner: every join is redirected
            let sent = EventLoop.hrtimeNs
            let client = try BenchSocket(port: entry.port)
            guard case .redirect(let redirect)? = try joinAnswer(client, room: "j\(room)", id: 1) else {
                throw ValidationError("join of j\(room) on a non-owner was not redirected")
            }
            let owner = try BenchSocket(port: redirect.port)
            try owner.send(#"{"type":"hello","room":"\#(redirect.room)","id":2}"#)
            guard owner.waitFor(timeout: 10, { if case .ack(let id, _) = $0 { id == .number("2") } else { false } }) != nil else {
                throw ValidationError("no ack from the owner of j\(room)")
            }
            latency.record((EventLoop.hrtimeNs - sent) / 1000)
        }
        let joinSeconds = Double(EventLoop.hrtimeNs - startNs) / 1e9
        var failovers: [Double] = []
        for run in 0..<runs {
            failovers.append(try failover(redis: redis.port, probe: servers[run % 3], room: "f\(run)"))
            FileHandle.standardError.write(Data("failover \(run + 1): \(String(format: "%.2f", failovers.last ?? 0)) s\n".utf8))
        }
        failovers.sort()
        let median = failovers.isEmpty ? 0 : failovers[failovers.count / 2]
        print("{\"bench\":\"fleet\",\"servers\":3,\"joins\":\(joins),\"joins_per_s\":\(Self.round(Double(joins) / joinSeconds)),"
              + "\"join_ms\":{\"p50\":\(Self.ms(latency, 50)),\"p99\":\(Self.ms(latency, 99))},"
              + "\"state_interval_s\":\(stateInterval),\"failover_s\":{\"runs\":\(failovers.count),\"median\":\(Self.round(median)),"
              + "\"worst\":\(Self.round(failovers.last ?? 0))}}")
    }

    /// A room on a fresh server, a body spawned and saved, the server SIGKILLed: seconds until `probe` joins it.
    private func failover(redis: Int, probe: BenchServer, room: String) throws -> Double {
        let victim = try startServer(redis: redis)
        defer { victim.stop() }
        let maker = try BenchSocket(port: victim.port)
        guard case .ack? = try joinAnswer(maker, room: room, id: 1) else { throw ValidationError("cannot create \(room)") }
        usleep(UInt32(stateInterval * 2 * 1e6))   // setup: the room's state reaches Redis
        let client = try BenchSocket(port: probe.port)
        kill(victim.pid, SIGKILL)
        victim.process.waitUntilExit()
        let killed = EventLoop.hrtimeNs
        var id = 10
        while EventLoop.hrtimeNs - killed < 30_000_000_000 {
            id += 1
            if case .ack? = try joinAnswer(client, room: room, id: id) { return Double(EventLoop.hrtimeNs - killed) / 1e9 }
            usleep(50_000)
        }
        throw ValidationError("\(room) never came back after its owner was killed")
    }

    /// The answer to a join: its ack, a redirect, or an error.
    private func joinAnswer(_ socket: BenchSocket, room: String, id: Int) throws -> ServerMessage? {
        try socket.send(#"{"type":"join","room":"\#(room)","id":\#(id)}"#)
        let echo = MessageID.number(String(id))
        return socket.waitFor(timeout: 10) { message in
            switch message {
            case .ack(let got, _): got == echo
            case .redirect(let redirect): redirect.id == echo
            case .error(let error): error.id == echo
            default: false
            }
        }
    }

    private func startServer(redis: Int) throws -> BenchServer {
        let server = try BenchServer.start(path: serverPath, clients: 64, limits: [
            "--cluster", "redis://127.0.0.1:\(redis)", "--advertise", "127.0.0.1", "--state-interval", "\(stateInterval)",
            "--rate", "1000000", "--burst", "1000000"])
        // Ready once the directory answers: a join of a fresh name is acked (not `unavailable`).
        let check = try BenchSocket(port: server.port)
        let deadline = EventLoop.hrtimeNs + 10_000_000_000
        var id = 0
        while EventLoop.hrtimeNs < deadline {
            id += 1
            if case .ack? = try joinAnswer(check, room: "ready-\(server.port)", id: id) { return server }
            usleep(20_000)
        }
        server.stop()
        throw ValidationError("dynserver on \(server.port) never reached Redis")
    }

    private func startRedis() throws -> (process: Process, port: Int) {
        let port = Int.random(in: 20_000...40_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [redisServer, "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = EventLoop.hrtimeNs + 10_000_000_000
        while EventLoop.hrtimeNs < deadline {
            if (try? BenchSocket(port: port)) != nil { return (process, port) }
            usleep(20_000)
        }
        throw ValidationError("redis-server did not start on \(port)")
    }

    private static func ms(_ histogram: Histogram<UInt64>, _ percentile: Double) -> Double {
        round(Double(histogram.valueAtPercentile(percentile)) / 1000)
    }

    private static func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
