import DynRoom
import ArgumentParser
import Logging
import NetProtocol
import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// `dynserver replay FILE`: re-runs a recording (docs/PROTOCOL.md, "Replay") headless at full speed, or with
/// `--serve` into room `replay` of a live server at `--speed` times real time.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-runs a recording made with --record: headless at full speed, or into room replay of a live server (--serve).",
        discussion: "Headless, prints one JSON line: ticks, commands, hashes_checked, first_divergence (null or {tick, expected, got}) and seconds. With --serve, any further flags are the server's (--port, --http-port, --token, ...).")

    @Argument(help: "The recording (DIR/ROOM.ndjson written by --record).") var file: String
    @Flag(name: .customLong("validate"), help: "Exit with status 1 when the replay diverges from the recording's hashes.")
    var exitOnDivergence = false
    @Option(help: "Stand at this tick of the recording's own clock: the lines up to it, then the ticks up to it.") var until: UInt64?
    @Flag(help: "Start a server and play the recording into its room replay for clients to watch.") var serve = false
    @Option(help: "With --serve: times real time (0.01...1000).") var speed: Double = 1
    @Argument(parsing: .allUnrecognized, help: "With --serve: the server's flags.") var serverFlags: [String] = []

    func validate() throws {
        guard speed >= 0.01, speed <= 1000 else { throw ValidationError("--speed must be 0.01...1000") }
        guard serve || ReplayCommand.serverArguments(CommandLine.arguments, file: file).isEmpty else {
            throw ValidationError("server flags go with --serve")
        }
    }

    /// The server's flags of `dynserver replay FILE --serve …`: the command line without the program, the
    /// subcommand, FILE and replay's own options. (The parser hands flags the root command knows to the root,
    /// so they are read from the command line itself.)
    static func serverArguments(_ arguments: [String], file: String) -> [String] {
        var rest = Array(arguments.dropFirst())
        if let index = rest.firstIndex(of: "replay") { rest.remove(at: index) }
        if let index = rest.firstIndex(of: file) { rest.remove(at: index) }
        var out: [String] = []
        var i = 0
        while i < rest.count {
            let arg = rest[i]
            switch arg {
            case "--validate", "--serve": i += 1
            case "--until", "--speed": i += 2
            default:
                if arg.hasPrefix("--until=") || arg.hasPrefix("--speed=") { i += 1; continue }
                out.append(arg)
                i += 1
            }
        }
        return out
    }

    func run() throws {
        let recording: Recording
        do {
            recording = try Recording.load(path: file)
        } catch {
            StandardError.line("dynserver replay: \(error)")
            throw ExitCode(2)
        }
        if let cut = recording.cut {
            StandardError.line("dynserver replay: \(cut): a partial last line (the recording was cut short): replaying up to it")
        }
        if serve {
            let server = try DynServerCommand.parse(ReplayCommand.serverArguments(CommandLine.arguments, file: file))
            try server.serve(replay: ReplayServing(recording: recording, speed: speed, until: until))
            return
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let header = recording.header
        var config = ServerConfig()
        config.tickHz = header.tickHz
        config.snapshotHz = header.tickHz
        config.worldWidth = header.width
        config.worldHeight = header.height
        config.maxBodies = header.maxBodies
        config.scene = "empty"
        let started = EventLoop.hrtimeNs
        // The room holds its front unowned: it lives as long as this run.
        let front = NullFront()
        defer { withExtendedLifetime(front) {} }
        let room = Room(name: header.room, config: config.roomConfig, log: Logger(label: "dynserver replay"), front: front,
                        scene: "empty", statePath: nil, beatStartNs: started)
        let player: ReplayPlayer
        do {
            player = try ReplayPlayer(recording: recording, room: room)
        } catch {
            StandardError.line("dynserver replay: \(error)")
            throw ExitCode(2)
        }
        while player.advance(until: until) != nil {}
        let seconds = Double(EventLoop.hrtimeNs - started) / 1e9
        let line = Array((player.summary(seconds: seconds) + "\n").utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if exitOnDivergence, player.divergence != nil { throw ExitCode(1) }
    }
}

/// What `replay --serve` hands the server it starts.
struct ReplayServing {
    var recording: Recording
    var speed: Double
    var until: UInt64?
}

enum StandardError {
    static func line(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
