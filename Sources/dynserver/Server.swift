import Dynamics
import Logging
import NetProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The authoritative server: one libuv loop that accepts clients, applies their commands to the shared
/// world, steps it at a fixed rate and broadcasts one encoded snapshot per snapshot tick to everyone.
///
/// Guarantees: everything runs on the loop thread; a client is dropped (its drag released, its handle
/// closed) exactly once; a slow client costs others nothing (snapshots to it are latest-only, its reliable
/// backlog is capped at `maxOutboxBytes`, and it is dropped after `stallTimeoutMs` without progress);
/// SIGINT/SIGTERM send `bye` to every client and end `run()` within about a second.
final class Server {
    let config: ServerConfig
    let loop: EventLoop
    let log: Logger
    let world: SharedWorld
    var sessions: [Int: ClientSession] = [:]
    private var nextClientID = 1
    private var listener: TCPListener?
    private(set) var tickTimer: UVTimer?
    private var housekeeping: UVTimer?
    var stateTimer: UVTimer?
    private var signals: [SignalWatcher] = []
    private(set) var shuttingDown = false

    var clock: TickClock
    var tick: UInt64 = 0
    var snapshotEncoder = SnapshotEncoder()
    var states: [BodyState] = []
    var lastSnapshotIndex: UInt64 = 0
    var sentPausedSnapshot = false
    var lastKeepAliveTick: UInt64 = 0
    var cachedScene: SharedBytes?
    /// Contact events beyond the per-tick cap, reported in the next `contact` message's `dropped`.
    var droppedContacts = 0
    let metrics = ServerMetrics()
    /// The HTTP/WebSocket listener (`--http-port`), when started.
    var http: HTTPFrontEnd?

    init(config: ServerConfig, log: Logger) throws {
        self.config = config
        self.log = log
        self.loop = try EventLoop()
        self.world = SharedWorld(width: config.worldWidth, height: config.worldHeight, stepHz: config.tickHz,
                           maxBodies: config.maxBodies)
        self.clock = TickClock(hz: config.tickHz, startNs: EventLoop.hrtimeNs)
        guard let scene = Scenes.named(config.scene) else {
            throw ServerStartError("unknown scene \"\(config.scene)\" (known: \(Scenes.names.joined(separator: ", ")))")
        }
        if let path = config.statePath, let problem = StateFile(path: path).unusableReason() {
            throw ServerStartError("--state \(path): \(problem)")
        }
        loadInitialWorld(scene)
        // edge: dyn_ticks_total counts this process's ticks, also after a --state restore (docs/PROTOCOL.md, /metrics).
        metrics.ticksAtStart = tick
        if config.held { world.held = true }
    }

    /// Binds and starts the timers and signal watchers; returns the address actually bound.
    func start() throws -> SocketAddress {
        let listener = try TCPListener(loop: loop, host: config.host, port: config.port) { [unowned self] in
            self.accept($0)
        }
        listener.onAcceptError = { [unowned self] error in self.log.warning("accept failed: \(error)") }
        self.listener = listener
        clock = TickClock(hz: config.tickHz, startNs: EventLoop.hrtimeNs)
        let tickTimer = try UVTimer(loop: loop)
        self.tickTimer = tickTimer
        try tickTimer.start(afterMs: clock.msUntilNext(nowNs: EventLoop.hrtimeNs)) { [unowned self] in self.onTickTimer() }
        let housekeeping = try UVTimer(loop: loop)
        self.housekeeping = housekeeping
        try housekeeping.start(afterMs: 250, repeatMs: 250) { [unowned self] in
            self.checkSlowClients()
            self.http?.closeStalledRequests()
        }
        try startStateTimer()
        for signum in [SIGINT, SIGTERM] {
            signals.append(try SignalWatcher(loop: loop, signal: signum) { [unowned self] signum in
                self.shutdown(reason: signum == SIGINT ? "SIGINT" : "SIGTERM")
            })
        }
        return listener.address
    }

    /// Runs the loop until shutdown; returns libuv's verdict on closing the loop (0 = no handle leaked).
    func run() -> Int32 {
        loop.run()
        let rc = loop.close()
        if rc != 0 { log.error("event loop closed with \(loop.liveHandles) handles still open") }
        return rc
    }

    // MARK: connections

    private func accept(_ connection: TCPConnection) {
        if shuttingDown {
            connection.close()
            return
        }
        connection.setNoDelay(true)
        // Keep the kernel's queue short so a slow client's backlog stays where snapshots can be superseded.
        try? connection.setSendBufferSize(Int32(config.sendBufferBytes))
        guard let session = admit(connection) else { return }
        do {
            try connection.startReading(onData: { [unowned self, unowned session] bytes in
                self.received(bytes, from: session)
            }, onEnd: { [unowned self, unowned session] error in
                self.drop(session, reason: error.map { "read error \($0)" } ?? "disconnected")
            })
        } catch {
            drop(session, reason: "cannot read: \(error)")
        }
    }

    /// The session logic every transport shares: refuses with `server_full`, or creates the session, sends
    /// `welcome` (and the world when no token is needed) and registers it. The caller starts reading.
    func admit(_ connection: any ClientTransport) -> ClientSession? {
        if sessions.count >= config.maxClients {
            log.notice("refused \(connection.peerDescription): server full (\(config.maxClients) clients)")
            let full = ProtocolError(.serverFull, "server is full (\(config.maxClients) clients)")
            metrics.error(.serverFull)
            connection.write(ServerMessage.error(full).encoded())
            connection.closeAfterFlush(timeoutMs: 1000)
            return nil
        }
        let id = nextClientID
        nextClientID += 1
        let session = ClientSession(id: id, connection: connection, maxLineBytes: config.maxLineBytes,
                                    bucket: TokenBucket(rate: config.rate, burst: config.burst, nowNs: EventLoop.hrtimeNs),
                                    authorized: config.token == nil, admin: config.adminToken == nil)
        session.metrics = metrics
        metrics.connected(transport: connection.transportName)
        let welcome = Welcome(client: id, server: ServerConfig.serverName, worldWidth: world.width,
                              worldHeight: world.height, tickHz: config.tickHz, snapshotHz: config.snapshotHz,
                              authRequired: config.token != nil)
        connection.write(ServerMessage.welcome(welcome).encoded())
        // A pending structure change goes to the others first, so the newcomer's join snapshot can count it
        // (it must be in `sessions`) without it receiving that scene twice.
        syncScene()
        sessions[id] = session
        if session.authorized { sendWorld(to: session) }
        log.info("client \(id) connected from \(session.address) over \(connection.transportName) (\(sessions.count) connected)")
        return session
    }

    /// Sends the current scene and, at once, the current snapshot (also when the world is paused).
    func sendWorld(to session: ClientSession) {
        syncScene()
        if let scene = cachedScene { session.connection.write(scene) }
        sendState(to: session)
    }

    /// Drops a client once: releases its drag, closes its connection (after a `bye` when `bye` is set).
    func drop(_ session: ClientSession, reason: String, bye: Bool = false) {
        guard !session.closing else { return }
        session.closing = true
        sessions[session.id] = nil
        world.endDrag(client: session.id)
        log.info("client \(session.id) dropped: \(reason) (\(sessions.count) connected)")
        if bye {
            session.connection.write(ServerMessage.bye(reason: reason).encoded())
            session.connection.closeAfterFlush(timeoutMs: 500)
        } else {
            session.connection.closeNow()
        }
    }

    /// Drops clients whose output is stuck or whose reliable backlog is over the cap.
    func checkSlowClients() {
        for session in Array(sessions.values) {
            let c = session.connection
            if c.pendingBytes > config.maxOutboxBytes {
                drop(session, reason: "too slow: \(c.pendingBytes) bytes unsent", bye: true)
            } else if c.stalledForMs > config.stallTimeoutMs {
                drop(session, reason: "stuck: no write progress for \(c.stalledForMs) ms", bye: true)
            }
        }
    }

    // MARK: shutdown

    func shutdown(reason: String) {
        guard !shuttingDown else { return }
        shuttingDown = true
        log.notice("shutting down (\(reason)), \(sessions.count) clients")
        listener?.close()
        http?.close()
        tickTimer?.close()
        housekeeping?.close()
        stateTimer?.close()
        saveState(reason: reason)
        signals.forEach { $0.close() }
        let bye = SharedBytes(ServerMessage.bye(reason: "shutdown").encoded())
        for session in sessions.values.sorted(by: { $0.id < $1.id }) {
            session.closing = true
            world.endDrag(client: session.id)
            session.connection.write(bye)
            session.connection.closeAfterFlush(timeoutMs: 1000)
        }
        sessions.removeAll()
    }
}

struct ServerStartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
