import DynRoom
import ArgumentParser
import Dynamics
import Logging
import NetProtocol
import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// `dynserver`: the authoritative dyn server (README.md).
@main
struct DynServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynserver",
        abstract: "The authoritative dyn server: one shared UIKit Dynamics world over line-delimited JSON on TCP.",
        discussion: "Prints 'dynserver listening on HOST:PORT' on stdout once it accepts connections, then 'dynserver http on http://HOST:PORT/' for the HTTP port (browser client, WebSocket, /metrics, /healthz) unless --no-http; logs go to stderr.",
        version: DynVersion.line("dynserver"),
        subcommands: [ReplayCommand.self])

    @Option(help: "Address to bind (127.0.0.1 unless told otherwise).") var host = "127.0.0.1"
    @Option(help: "TCP port; 0 takes any free port.") var port = 7700
    @Option(help: "HTTP port for the browser client, WebSocket, /metrics and /healthz (default: --port + 1; 0 takes any free port).")
    var httpPort: Int?
    @Flag(help: "Do not open the HTTP port.") var noHttp = false
    @Option(help: "SharedWorld size in points, WIDTHxHEIGHT.") var world = "800x600"
    @Option(help: "Physics steps per second.") var tickHz: Double = 60
    @Option(help: "Snapshots per second sent to each client.") var snapshotHz: Double = 30
    @Option(help: "Scene loaded at start: \(Scenes.names.joined(separator: ", ")).") var scene = "default"
    @Option(help: "Token a client's hello must carry before anything but hello and ping.") var token: String?
    @Option(help: "Token that allows set, gravity, collision, spawn, remove and scene.") var adminToken: String?
    @Option(help: "Connections beyond this get server_full.") var maxClients = 256
    @Option(help: "Longest accepted line from a client, in bytes.") var maxLineBytes = 65536
    @Option(help: "Commands per second per client (token bucket rate).") var rate: Double = 120
    @Option(help: "Token bucket burst per client.") var burst: Double = 240
    @Option(help: "Disconnect a client whose writes make no progress for this many seconds.") var stallTimeout: Double = 10
    @Option(help: "Disconnect a client holding more unsent bytes than this.") var maxOutboxBytes = 8 * 1024 * 1024
    @Option(help: "Most items the world may hold.") var maxBodies = 5000
    @Option(help: "Kernel send buffer per client in bytes (SO_SNDBUF; Linux doubles it).") var sendBufferBytes = 256 * 1024
    @Option(help: "Save the world to this file every --state-interval seconds and at shutdown; restore it at start.") var state: String?
    @Option(help: "Seconds between state saves.") var stateInterval: Double = 5
    @Option(help: "Keep one state file per room in this directory (DIR/NAME.json): saved every --state-interval, at unload and at shutdown; main is restored from it at start.")
    var stateDir: String?
    @Option(help: "Unload a room other than main after this many seconds without clients (saved first with --state-dir).")
    var roomIdleS: Double = 300
    @Option(help: "Most rooms loaded at once, main included.") var maxRooms = 1000
    @Option(help: "Most rooms one connection may have created that are still loaded (the admin token is exempt).")
    var maxRoomsPerClient = 16
    @Flag(help: "Refuse joins that would create a room (forbidden).") var noRoomCreate = false
    @Option(help: "Worker threads that run the rooms' ticks, steps and saves off the loop (default: the number of cores).") var threads: Int?
    @Option(help: "Join a fleet whose room directory is in Redis: redis://[:PASSWORD@]HOST:PORT[/DB] (docs/DEPLOY.md).") var cluster: String?
    @Option(name: .customLong("room-ttl-s"), help: "In a fleet: seconds a room's saved state stays in Redis with nobody holding the room (default 7 days).")
    var roomTTLS: Double = 7 * 86_400
    @Option(name: .customLong("drain-s"), help: "At SIGTERM: seconds rooms with members keep running before they are saved and their members told bye (default 30).")
    var drainS: Double = 30
    @Option(help: "The TCP address other servers of the fleet send clients to, HOST[:PORT] (no port: the bound one).")
    var advertise: String?
    @Option(help: "The base URL of this server's pages in redirects (default http://ADVERTISED_HOST:HTTP_PORT).")
    var advertiseHttp: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"
    @Flag(help: "Start held, as after a pause command: no steps until step or resume (deterministic tests).") var held = false
    @Option(help: "Record every room to DIR/ROOM.ndjson (its state, then every command that changed it, and hashes).")
    var record: String?
    @Option(help: "Ticks between the state hashes of a recording.") var hashEvery = 60
    @Option(help: "With --record: a recording past this many MB moves to ROOM.ndjson.1 and a new one starts.")
    var recordMaxMb: Double?

    func validate() throws {
        guard parseWorld() != nil else { throw ValidationError("--world must look like 800x600 (positive sizes up to 100000)") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard (0...65535).contains(httpPort ?? 0), httpPort == nil || !noHttp else {
            throw ValidationError("--http-port must be 0...65535 (and not with --no-http)")
        }
        guard resolvedHTTPPort.map({ $0 <= 65535 }) ?? true else {
            throw ValidationError("--port 65535 leaves no next port for HTTP: give --http-port or --no-http")
        }
        guard tickHz >= 1, tickHz <= 1000 else { throw ValidationError("--tick-hz must be 1...1000") }
        guard snapshotHz > 0, snapshotHz <= tickHz else { throw ValidationError("--snapshot-hz must be > 0 and <= --tick-hz") }
        guard Scenes.named(scene) != nil else { throw ValidationError("--scene must be one of \(Scenes.names.joined(separator: ", "))") }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be >= 1") }
        guard maxLineBytes >= 256 else { throw ValidationError("--max-line-bytes must be >= 256") }
        guard rate > 0, burst >= 1 else { throw ValidationError("--rate must be > 0 and --burst >= 1") }
        guard stallTimeout > 0 else { throw ValidationError("--stall-timeout must be > 0 seconds") }
        // Below 64 KiB one keyframe of a modest world would already exceed the backlog and drop its client.
        guard maxOutboxBytes >= 65536 else { throw ValidationError("--max-outbox-bytes must be >= 65536") }
        guard maxBodies >= 1 else { throw ValidationError("--max-bodies must be >= 1") }
        guard sendBufferBytes >= 1024 else { throw ValidationError("--send-buffer-bytes must be >= 1024") }
        guard stateInterval >= 0.05, stateInterval <= 86_400 else { throw ValidationError("--state-interval must be 0.05...86400 seconds") }
        if let state, state.isEmpty { throw ValidationError("--state needs a file name") }
        if let stateDir, stateDir.isEmpty { throw ValidationError("--state-dir needs a directory") }
        guard roomIdleS > 0, roomIdleS <= 86_400 * 365 else { throw ValidationError("--room-idle-s must be > 0") }
        guard maxRooms >= 1 else { throw ValidationError("--max-rooms must be >= 1 (main counts)") }
        guard maxRoomsPerClient >= 0 else { throw ValidationError("--max-rooms-per-client must be >= 0") }
        guard (threads ?? 1) >= 1, (threads ?? 1) <= 256 else { throw ValidationError("--threads must be 1...256") }
        if let record, record.isEmpty { throw ValidationError("--record needs a directory") }
        guard hashEvery >= 1 else { throw ValidationError("--hash-every must be >= 1") }
        if let recordMaxMb, !(recordMaxMb > 0 && recordMaxMb <= 1_000_000) { throw ValidationError("--record-max-mb must be > 0") }
        if let cluster { _ = try RedisAddress(parsing: cluster) }
        guard roomTTLS >= 1, roomTTLS <= 86_400 * 365 else { throw ValidationError("--room-ttl-s must be 1...31536000") }
        guard drainS >= 0, drainS <= 3600 else { throw ValidationError("--drain-s must be 0...3600") }
        if let advertise { _ = try Self.parseAdvertise(advertise) }
        if cluster == nil, advertise != nil || advertiseHttp != nil { throw ValidationError("--advertise and --advertise-http go with --cluster") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical") }
    }

    /// `--http-port`, else the TCP port + 1 (0 stays 0: any free port), nil with `--no-http`.
    private var resolvedHTTPPort: Int? {
        if noHttp { return nil }
        return httpPort ?? (port == 0 ? 0 : port + 1)
    }

    /// `--advertise HOST[:PORT]` (an IPv6 host in brackets when it has a port).
    static func parseAdvertise(_ text: String) throws -> (host: String, port: Int) {
        var host = text
        var port = 0
        if let colon = text.lastIndex(of: ":"), text.hasPrefix("[") ? text[..<colon].hasSuffix("]") : !text[..<colon].contains(":") {
            guard let p = Int(text[text.index(after: colon)...]), (0...65535).contains(p) else {
                throw ValidationError("--advertise: the port is 0...65535 in \(text)")
            }
            port = p
            host = String(text[..<colon])
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host != "0.0.0.0", host != "::" else {
            throw ValidationError("--advertise needs an address other servers can reach, not \(text)")
        }
        return (host, port)
    }

    private func parseWorld() -> (Double, Double)? {
        let parts = world.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w > 0, h > 0, w <= 100_000, h <= 100_000 else { return nil }
        return (w, h)
    }

    func run() throws {
        try serve(replay: nil)
    }

    /// Runs the server; with `replay`, it plays that recording into its room `replay` (ReplayCommand.swift).
    func serve(replay: ReplayServing?) throws {
        signal(SIGPIPE, SIG_IGN)   // a peer that vanished mid-write must not kill the server
        // posix_spawn keeps the parent's signal mask, and some parents (Swift's concurrency threads, e.g. a test
        // runner) block nearly every signal: libuv's watchers never see a blocked SIGINT/SIGTERM.
        var shutdownSignals = sigset_t()
        sigemptyset(&shutdownSignals)
        sigaddset(&shutdownSignals, SIGINT)
        sigaddset(&shutdownSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &shutdownSignals, nil)
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let log = Logger(label: "dynserver")
        guard let (w, h) = parseWorld() else { throw ExitCode.validationFailure }
        var config = ServerConfig()
        config.host = host
        config.port = port
        config.httpPort = resolvedHTTPPort
        config.worldWidth = w
        config.worldHeight = h
        config.tickHz = tickHz
        config.snapshotHz = snapshotHz
        config.scene = scene
        config.token = token
        config.adminToken = adminToken
        config.maxClients = maxClients
        config.maxLineBytes = maxLineBytes
        config.rate = rate
        config.burst = burst
        config.stallTimeoutMs = UInt64(stallTimeout * 1000)
        config.maxOutboxBytes = maxOutboxBytes
        config.maxBodies = maxBodies
        config.sendBufferBytes = sendBufferBytes
        config.statePath = state
        config.stateIntervalS = stateInterval
        config.held = held
        config.stateDir = stateDir
        config.roomIdleS = roomIdleS
        config.maxRooms = maxRooms
        config.maxRoomsPerClient = maxRoomsPerClient
        config.noRoomCreate = noRoomCreate
        config.threads = threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        config.stepWorkers = config.threads > 1 ? StepWorkers(threads: config.threads) : nil
        config.recordDir = record
        config.hashEvery = UInt64(hashEvery)
        config.recordMaxBytes = recordMaxMb.map { Int($0 * 1_000_000) }
        config.cluster = try cluster.map { try RedisAddress(parsing: $0) }
        config.roomTTLS = roomTTLS
        config.drainS = drainS
        if let advertise { (config.advertiseHost, config.advertisePort) = try Self.parseAdvertise(advertise) }
        config.advertiseHTTP = advertiseHttp.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        config.agonesPort = getenv("AGONES_SDK_HTTP_PORT").flatMap { Int(String(cString: $0)) }

        let server = try Server(config: config, log: log)
        let address: SocketAddress
        do {
            address = try server.start()
        } catch {
            log.critical("cannot listen on \(host):\(port): \(error)")
            throw ExitCode(2)
        }
        var lines = "dynserver listening on \(address)\n"
        var boundHTTPPort: Int?
        if let httpPort = config.httpPort {
            do {
                let http = HTTPFrontEnd(server: server)
                let httpAddress = try http.start(host: host, port: httpPort)
                boundHTTPPort = httpAddress.port
                lines += "dynserver http on http://\(httpAddress)/\n"
                server.http = http
                server.boundHTTPPort = httpAddress.port
            } catch {
                log.critical("cannot listen for HTTP on \(host):\(httpPort): \(error) (--http-port P or --no-http)")
                server.shutdown(reason: "no HTTP port")
                _ = server.run()
                throw ExitCode(2)
            }
        }
        if let replay {
            do {
                try server.startReplay(replay)
            } catch {
                log.critical("cannot replay: \(error)")
                server.shutdown(reason: "replay failed")
                _ = server.run()
                throw ExitCode(2)
            }
        }
        do {
            try server.startFleet(tcpPort: address.port, httpPort: boundHTTPPort)
        } catch {
            log.critical("cannot start the fleet's parts: \(error)")
            server.shutdown(reason: "fleet start failed")
            _ = server.run()
            throw ExitCode(2)
        }
        let line = Array(lines.utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        log.info("world \(Int(w))x\(Int(h)), scene \(server.mainRoom.world.sceneName), \(Int(tickHz)) Hz ticks, \(Int(snapshotHz)) Hz snapshots")
        let rc = server.run()
        log.info("stopped")
        if rc != 0 { throw ExitCode(3) }
    }
}
