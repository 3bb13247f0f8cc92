import ArgumentParser
import Foundation
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

    func run() throws {
        let server = try port == nil ? BenchServer.start(path: serverPath, clients: clients) : nil
        defer { server?.stop() }
        let targetPort = port ?? server!.port
        let load = try LoadRun(port: targetPort, clients: clients, bodies: bodies, seconds: seconds, warmup: warmup,
                               serverPID: server?.pid)
        let result = try load.run()
        print(result)
    }
}

/// A `dynserver` child process started for the benchmark.
final class BenchServer {
    let process: Process
    let port: Int
    var pid: Int32 { process.processIdentifier }

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(path: String?, clients: Int) throws -> BenchServer {
        let exe = path ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("dynserver").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exe)
        process.arguments = ["--port", "0", "--scene", "empty", "--world", "4000x3000", "--rate", "1000000",
                             "--burst", "1000000", "--max-clients", "\(clients + 8)", "--log-level", "warning"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = ""
        let handle = out.fileHandleForReading
        while !text.contains("\n") {
            let data = handle.availableData
            if data.isEmpty { throw ValidationError("dynserver exited before listening") }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let portText = text.split(separator: "\n").first?.split(separator: ":").last, let port = Int(portText) else {
            throw ValidationError("unexpected first line from dynserver: \(text)")
        }
        return BenchServer(process: process, port: port)
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
