import DynRoom
import Dynamics
import Logging
import NetProtocol
import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// The front of the server (docs/ARCHITECTURE.md, Rooms): one libuv loop that accepts clients, routes each
/// session's messages to its room, runs the beat that steps every room (on `--threads` workers) and writes
/// what the rooms produce.
///
/// Guarantees: every libuv handle and every session is touched on the loop thread only; a client is dropped
/// (its drag released, its handle closed) exactly once; a slow client costs others nothing (snapshots to it
/// are latest-only, its reliable backlog is capped at `maxOutboxBytes`, and it is dropped after
/// `stallTimeoutMs` without progress); SIGINT/SIGTERM save the rooms, send `bye` to every client and end
/// `run()` within about a second.
final class Server {
    let config: ServerConfig
    let loop: EventLoop
    let log: Logger
    var sessions: [Int: ClientSession] = [:]
    /// Loaded rooms by name, `main` always among them (Server+Rooms.swift).
    var rooms: [String: Room] = [:]
    /// The loaded rooms sorted by name: the beat's and the saves' order.
    var roomOrder: [Room] = [] { didSet { reindexRuns() } }
    /// The rooms the beat looks at (Server+Beat.swift): every room but those resting in `restCalendar`.
    var beatRuns: [RoomRun] = []
    /// Rooms that came back onto the beat since its last pass (woken, created or loaded).
    var beatArrivals: [RoomRun] = []
    /// Resting rooms by the tick period in which their rest ends (their next keep-alive).
    var restCalendar: [UInt64: [RoomRun]] = [:]
    /// The last tick period whose resting rooms came back onto the beat.
    var restCalendarIndex: UInt64 = 0
    /// Rooms saved in `--state-dir` and not loaded now.
    var unloadedRooms: [String: UnloadedRoom] = [:]
    /// The start of the tick schedule every room's clock follows.
    let beatStartNs: UInt64
    /// The `--threads` workers that run the rooms' jobs (Server+RoomRuns.swift), and how they wake the loop.
    var workers: RoomWorkers?
    private var workersDone: AsyncWaker?
    /// Where each room is (on a worker or here) and the inputs that wait for it.
    var roomRuns: [ObjectIdentifier: RoomRun] = [:]
    /// The sessions whose waited inputs were applied by the `drainWaiting` in progress: their room's scene and
    /// their replies go out once, when it ends (see `settle`).
    var settlesAfterDrain: [ClientSession]?
    /// Called with every state a room's save job encoded (after the fleet's copy): a hook for the lifecycle.
    var onSaved: ((Room, SavedState) -> Void)?
    /// When the beat's timer is due (`dyn_loop_lag_seconds` is how late it fires).
    var tickTimerDueNs: UInt64 = 0
    private var nextClientID = 1
    private var listener: TCPListener?
    private(set) var tickTimer: UVTimer?
    private var housekeeping: UVTimer?
    var stateTimer: UVTimer?
    private var signals: [SignalWatcher] = []
    private(set) var shuttingDown = false
    /// SIGTERM in a fleet or under Agones: no new rooms, rooms run until their members leave or `--drain-s`
    /// passes, then shutdown (Server+Fleet.swift).
    var draining = false
    var drainTimer: UVTimer?

    var clock: TickClock
    let metrics = ServerMetrics()
    /// The HTTP/WebSocket listener (`--http-port`), when started.
    var http: HTTPFrontEnd?
    /// The port the HTTP listener bound (not the asked one: `--port 0` binds any), said in every `welcome`
    /// so a client can show the page's exact address (docs/PROTOCOL.md, welcome); nil without HTTP.
    var boundHTTPPort: Int?
    /// The fleet's room directory (`--cluster`), and the Agones SDK client (`AGONES_SDK_HTTP_PORT`):
    /// Server+Fleet.swift.
    var cluster: ClusterDirectory?
    var agones: AgonesSDK?
    /// Whether the loop keeps time (`GET /healthz`).
    var loopHealth: LoopHealth?

    init(config: ServerConfig, log: Logger) throws {
        self.config = config
        self.log = log
        self.loop = try EventLoop()
        beatStartNs = EventLoop.hrtimeNs
        self.clock = TickClock(hz: config.tickHz, startNs: beatStartNs)
        guard Scenes.named(config.scene) != nil else {
            throw ServerStartError("unknown scene \"\(config.scene)\" (known: \(Scenes.names.joined(separator: ", ")))")
        }
        if let path = config.statePath, let problem = StateFile(path: path).unusableReason() {
            throw ServerStartError("--state \(path): \(problem)")
        }
        if let directory = config.stateDir {
            var info = stat()
            if stat(directory, &info) != 0 { mkdir(directory, 0o755) }
            guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw ServerStartError("--state-dir \(directory): not a directory (and cannot be created)")
            }
        }
        let main = Room(name: Room.mainName, config: config.roomConfig, log: log, front: self, scene: config.scene,
                        statePath: statePath(ofRoom: Room.mainName), beatStartNs: beatStartNs)
        rooms[main.name] = main
        roomOrder = [main]
        reindexRuns()  // observers do not run in init
        discoverSavedRooms()
    }

    /// The room that always exists.
    var mainRoom: Room { rooms[Room.mainName]! }

    /// Binds and starts the timers and signal watchers; returns the address actually bound.
    func start() throws -> SocketAddress {
        let listener = try TCPListener(loop: loop, host: config.host, port: config.port) { [unowned self] in
            self.accept($0)
        }
        listener.onAcceptError = { [unowned self] error in self.log.warning("accept failed: \(error)") }
        self.listener = listener
        clock = TickClock(hz: config.tickHz, startNs: beatStartNs, joiningAt: EventLoop.hrtimeNs)
        let workersDone = try AsyncWaker(loop: loop) { [unowned self] in self.workersFinished() }
        self.workersDone = workersDone
        workers = RoomWorkers(threads: max(1, config.threads), wake: workersDone.signal)
        let tickTimer = try UVTimer(loop: loop)
        self.tickTimer = tickTimer
        let firstMs = clock.msUntilNext(nowNs: EventLoop.hrtimeNs)
        tickTimerDueNs = EventLoop.hrtimeNs + firstMs * 1_000_000
        try tickTimer.start(afterMs: firstMs) { [unowned self] in self.onTickTimer() }
        let housekeeping = try UVTimer(loop: loop)
        self.housekeeping = housekeeping
        try housekeeping.start(afterMs: 250, repeatMs: 250) { [unowned self] in
            self.checkSlowClients()
            self.http?.closeStalledRequests()
            self.unloadIdleRooms(nowNs: EventLoop.hrtimeNs)
        }
        if config.statePath != nil || config.stateDir != nil || config.cluster != nil {
            let timer = try UVTimer(loop: loop)
            let ms = UInt64(config.stateIntervalS * 1000)
            try timer.start(afterMs: ms, repeatMs: ms) { [unowned self] in self.saveRooms(reason: "interval") }
            stateTimer = timer
        }
        for signum in [SIGINT, SIGTERM] {
            signals.append(try SignalWatcher(loop: loop, signal: signum) { [unowned self] signum in
                // In a fleet or under Agones the first SIGTERM drains (Server+Fleet.swift); a second one ends it.
                if signum == SIGTERM, self.drainsOnSigterm, !self.draining {
                    self.drain()
                } else {
                    self.shutdown(reason: signum == SIGINT ? "SIGINT" : "SIGTERM")
                }
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
    func admit(_ connection: any ClientTransport, room requested: String? = nil) -> ClientSession? {
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
        let main = mainRoom
        let session = ClientSession(id: id, connection: connection, maxLineBytes: config.maxLineBytes,
                                    bucket: TokenBucket(rate: config.rate, burst: config.burst, nowNs: EventLoop.hrtimeNs),
                                    authorized: config.token == nil, admin: config.adminToken == nil, room: main)
        session.metrics = metrics
        metrics.connected(transport: connection.transportName)
        // `GET /ws?room=NAME`: the session starts in NAME when the join can happen now; otherwise the join's
        // error follows the welcome and it stays in main (or NAME is joined at its token hello).
        var plan: JoinPlan?
        var refusal: ProtocolError?
        var claimLater = false
        if let requested, requested != Room.mainName {
            if session.authorized, let cluster, cluster.mustClaim(requested) {
                claimLater = true
            } else if session.authorized {
                switch planJoin(requested, scene: nil, roomToken: nil, for: session) {
                case .success(let planned): plan = planned
                case .failure(let error): refusal = error
                }
            } else {
                session.requestedRoom = requested
            }
        }
        let welcomeRoom: String
        switch plan?.target {
        case .loaded(let room)?: welcomeRoom = room.name
        case .restore(let name)?, .create(let name, _)?: welcomeRoom = name
        case nil: welcomeRoom = Room.mainName
        }
        let welcome = Welcome(client: id, server: ServerConfig.serverName, worldWidth: config.worldWidth,
                              worldHeight: config.worldHeight, tickHz: config.tickHz, snapshotHz: config.snapshotHz,
                              authRequired: config.token != nil, room: welcomeRoom, httpPort: boundHTTPPort)
        connection.write(ServerMessage.welcome(welcome).encoded())
        sessions[id] = session
        // `main` may be on a worker: the session takes its seat when main is back (its messages wait too).
        whenFree(main) { [unowned self] in
            guard !session.closing else { return }
            main.add(session.seat)
            if let plan {
                self.performJoin(plan, session: session, id: nil, extraAck: [])
                session.flushReplies()
            } else if session.authorized {
                main.sendWorld(to: session.seat)
            }
            if let refusal {
                session.reply(.error(refusal))
                session.flushReplies()
            }
            if claimLater, let requested { self.joinFleetRoom(requested, session: session) }
        }
        log.info("client \(id) connected from \(session.address) over \(connection.transportName) (\(sessions.count) connected)")
        return session
    }

    /// Drops a client once: releases its drag, closes its connection (after a `bye` when `bye` is set).
    func drop(_ session: ClientSession, reason: String, bye: Bool = false) {
        guard !session.closing else { return }
        session.closing = true
        sessions[session.id] = nil
        let room = session.room
        whenFree(room) { room.remove(session.seat, nowNs: EventLoop.hrtimeNs) }
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
        // The workers finish the jobs they run (their output goes nowhere now) and stop; then every room is
        // the loop's again and is saved here (shutdown may wait: nothing else is served any more).
        workers?.stop()
        _ = workers?.takeQueued()
        _ = workers?.takeFinished()
        for run in roomRuns.values { run.onWorker = false }
        workersDone?.close()
        saveRooms(reason: reason, always: true)
        stopFleet()
        signals.forEach { $0.close() }
        drainTimer?.close()
        drainTimer = nil
        let bye = SharedBytes(ServerMessage.bye(reason: draining ? "draining" : "shutdown").encoded())
        for session in sessions.values.sorted(by: { $0.id < $1.id }) {
            session.closing = true
            session.room.remove(session.seat, nowNs: EventLoop.hrtimeNs)
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
