import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetProtocol

/// `dynbench server`: N real TCP clients against a release `dynserver` with M moving bodies; reports each
/// client's snapshot rate, the server's CPU, bytes/s and tap-to-visible latency (HdrHistogram).
struct ServerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Load a dynserver with N clients and M moving bodies; print one JSON line.")

    @Option(help: "Concurrent TCP clients.") var clients = 100
    @Option(help: "Moving bodies in the world.") var bodies = 1000
    @Option(help: "Measured seconds (after the warm-up).") var seconds: Double = 10
    @Option(help: "Warm-up seconds before measuring.") var warmup: Double = 2
    @Option(help: "Use a running server on this port instead of starting one (it needs a generous --rate).") var port: Int?
    @Option(help: "The dynserver binary (default: next to dynbench).") var serverPath: String?
    @Option(help: "Share of clients that subscribe to compact frames (0...1); the rest take full snapshots.") var compactFraction: Double = 0
    @Option(help: "Share of clients that subscribe to packed frames, as `packed` lines (0...1), after the compact ones.") var packedFraction: Double = 0
    @Option(help: "Share of the bodies that move (0...1); the others start at rest.") var movingFraction: Double = 1
    @Option(help: "Run the clients through a simulated link with this one-way delay (ms).") var linkDelayMs: Double?
    @Option(help: "The link's jitter, ± ms.") var linkJitterMs: Double = 0
    @Option(help: "The link's bandwidth cap per direction and connection, kbit/s.") var linkRateKbit: Double = 1_000_000
    @Option(help: "A client's interpolation buffer: frames arriving later than this behind the earliest are not ready (ms).") var interpBufferMs: Double = 100
    @Option(help: "An extra client floods the server with this many tap lines per second.") var floodLinesPerS: Int = 0

    func validate() throws {
        guard (0...1).contains(compactFraction), (0...1).contains(packedFraction), (0...1).contains(movingFraction) else {
            throw ValidationError("--compact-fraction, --packed-fraction and --moving-fraction must be 0...1")
        }
    }

    func run() throws {
        // A flood is measured against the default command rate; the world is still built within one burst.
        let limits = floodLinesPerS > 0 ? ["--rate", "120", "--burst", "\(bodies + 100)"] : ["--rate", "1000000", "--burst", "1000000"]
        let server = try port == nil ? BenchServer.start(path: serverPath, clients: clients, limits: limits, http: true) : nil
        defer { server?.stop() }
        let targetPort = port ?? server!.port
        var options = LoadRun.Options()
        options.compactFraction = compactFraction
        options.packedFraction = packedFraction
        options.movingFraction = movingFraction
        options.link = linkDelayMs.map { LinkProxy.Shape(delayMs: $0, jitterMs: linkJitterMs, rateKbit: linkRateKbit) }
        options.interpBufferMs = interpBufferMs
        options.floodLinesPerS = floodLinesPerS
        options.metricsPort = server?.httpPort
        let load = try LoadRun(port: targetPort, clients: clients, bodies: bodies, seconds: seconds, warmup: warmup,
                               serverPID: server?.pid, options: options)
        let result = try load.run()
        print(result)
    }
}

/// A `dynserver` child process started for the benchmark.
final class BenchServer {
    let process: Process
    let port: Int
    /// The HTTP port (/metrics) when started with `http`.
    let httpPort: Int?
    var pid: Int32 { process.processIdentifier }

    private init(process: Process, port: Int, httpPort: Int?) {
        self.process = process
        self.port = port
        self.httpPort = httpPort
    }

    /// `http`: also open the HTTP port (any free one), for /metrics.
    static func start(path: String?, clients: Int, limits: [String], http: Bool = false) throws -> BenchServer {
        let exe = path ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("dynserver").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exe)
        process.arguments = ["--port", "0", "--scene", "empty", "--world", "4000x3000", "--max-clients", "\(clients + 8)",
                             "--log-level", "warning"] + (http ? ["--http-port", "0"] : ["--no-http"]) + limits
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = ""
        let handle = out.fileHandleForReading
        while text.filter({ $0 == "\n" }).count < (http ? 2 : 1) {
            let data = handle.availableData
            if data.isEmpty { throw ValidationError("dynserver exited before listening") }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let portText = text.split(separator: "\n").first?.split(separator: ":").last, let port = Int(portText) else {
            throw ValidationError("unexpected first line from dynserver: \(text)")
        }
        // The second line: `dynserver http on http://HOST:PORT/`.
        let httpPort = http ? text.split(separator: "\n").dropFirst().first.flatMap { line in
            line.split(separator: ":").last.flatMap { Int($0.filter(\.isNumber)) }
        } : nil
        if http, httpPort == nil { throw ValidationError("unexpected second line from dynserver: \(text)") }
        return BenchServer(process: process, port: port, httpPort: httpPort)
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

/// CPU time (user + system) of a process in seconds, from /proc.
func processCPUSeconds(_ pid: Int32) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command name: state is field 3; utime and stime are fields 14 and 15 (1-based).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Each mode's `dyn_snapshot_encode_seconds_total` from a server's /metrics (nil when it does not answer).
func snapshotEncodeSeconds(httpPort: Int) -> [String: Double]? {
    guard let url = URL(string: "http://127.0.0.1:\(httpPort)/metrics"),
          let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
    var seconds: [String: Double] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("dyn_snapshot_encode_seconds_total{mode=\"") {
        let parts = line.dropFirst("dyn_snapshot_encode_seconds_total{mode=\"".count).split(separator: "\"")
        guard parts.count == 2, let value = Double(parts[1].drop { $0 == "}" || $0 == " " }) else { continue }
        seconds[String(parts[0])] = value
    }
    return seconds
}
