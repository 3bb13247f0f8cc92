import DynRoom
import Logging
import NetProtocol

/// A room of the fleet as the directory last listed it.
struct FleetRoom {
    var summary: RoomSummary
    /// `HOST:PORT` of the server holding its lease; nil when nobody does (saved, not loaded).
    var owner: String?
    /// The owner's page base (`http://HOST:PORT`).
    var http: String?
}

/// This server's part in the fleet (docs/DEPLOY.md; docs/PROTOCOL.md, A fleet of servers): leases on the
/// rooms it loads, their state in Redis, redirects, and the fleet-wide room list.
///
/// Guarantees: every room other than `main` that this server has loaded holds a lease in Redis, taken
/// (`claim`) before the room loads and renewed every second (`renewMs`); renewals, state writes and releases
/// are compare-and-set scripts (ClusterScripts), so they never touch a lease another server holds; a room
/// whose lease was taken by another server is dropped here (its members are redirected); state is written
/// with the rooms' `--state-interval` saves, at unload and at shutdown, and read back by whoever claims the
/// room; while Redis is away, loaded rooms keep running, joins that need the directory get `unavailable`,
/// and the connection is retried with backoff (250 ms doubling to 5 s), re-registering every loaded room
/// when it returns. A session waiting for a claim has its later lines held and handled in order afterwards.
final class ClusterDirectory {
    unowned let server: Server
    let redis: RedisConnection
    /// `HOST:PORT`, the advertised TCP address.
    let me: String
    /// `http://HOST:PORT` (or `--advertise-http`), the base of this server's pages.
    let httpBase: String
    static let leaseMs = 5000
    static let renewMs: UInt64 = 1000
    /// A reply awaited longer than this means Redis is stalled: the connection is dropped and retried.
    static let stallMs: UInt64 = 3000

    private var timer: UVTimer?
    private var lastRenewMs: UInt64 = 0
    private var backoffMs: UInt64 = 250
    private var nextConnectMs: UInt64 = 0
    private(set) var downReason: String? = "connecting"
    private(set) var directory: [String: FleetRoom] = [:]
    /// Claims in flight, by room: everyone waiting for the answer.
    private var claims: [String: [(ClaimOutcome) -> Void]] = [:]
    /// Leases taken for rooms not loaded yet, with the state to restore.
    private var claimed: [String: [UInt8]?] = [:]
    /// Sessions waiting for a claim, and the lines they sent meanwhile.
    private var holding: Set<Int> = []
    private var held: [Int: [[UInt8]]] = [:]
    private var stopping = false
    /// Each script's SHA1 in Redis (`SCRIPT LOAD`), for `EVALSHA`.
    private var scriptSHAs: [String: String] = [:]
    /// At shutdown: bounds the wait for Redis' last answers.
    private var guardTimer: UVTimer?

    enum ClaimOutcome {
        case claimed(state: [UInt8]?)
        case ownedElsewhere(String)
        case unavailable
    }

    var ownerValue: String { "\(me) \(httpBase)" }
    var log: Logger { server.log }

    init(server: Server, address: RedisAddress, me: String, httpBase: String) {
        self.server = server
        self.me = me
        self.httpBase = httpBase
        redis = RedisConnection(loop: server.loop, host: address.host, port: address.port, database: address.database)
        redis.onUp = { [unowned self] in self.redisUp() }
        redis.onDown = { [unowned self] reason in self.redisDown(reason) }
    }

    /// Connects and starts the one-second renewals.
    func start() throws {
        let timer = try UVTimer(loop: server.loop)
        try timer.start(afterMs: 0, repeatMs: 250) { [unowned self] in self.housekeeping() }
        self.timer = timer
        redis.connect()
    }

    /// Why the directory cannot be used now (nil: Redis answers).
    var problem: String? { downReason.map { "redis unavailable (\($0))" } }

    private func housekeeping() {
        let now = server.loop.nowMs
        if let since = redis.waitingSinceMs, now &- since > Self.stallMs {
            log.warning("redis: no reply for \(now &- since) ms; dropping the connection")
            redis.abort()
        }
        if !redis.isOpen, now >= nextConnectMs { redis.connect() }
        if redis.isUp, now &- lastRenewMs >= Self.renewMs {
            lastRenewMs = now
            renewAll()
            refresh()
        }
    }

    private func redisUp() {
        let wasDown = downReason
        downReason = nil
        backoffMs = 250
        log.notice("redis: connected to \(redis.host):\(redis.port)\(wasDown.map { " (was: \($0))" } ?? ""); registering \(server.rooms.count - 1) rooms")
        lastRenewMs = server.loop.nowMs
        scriptSHAs.removeAll()
        loadScripts()
        // Re-registration: leases and state for every loaded room (Redis may have lost them).
        renewAll()
        for room in server.roomOrder where room.name != Room.mainName { save(room, always: true) }
        refresh()
    }

    private func redisDown(_ reason: String) {
        if stopping {
            closeGuard()
            return
        }
        if downReason == nil || downReason == "connecting" {
            log.warning("redis: \(reason); rooms in memory keep running, joins that need the directory are unavailable")
        }
        downReason = reason
        nextConnectMs = server.loop.nowMs + backoffMs
        backoffMs = min(backoffMs * 2, 5000)
    }

    // MARK: scripts

    /// Runs a script: `EVALSHA` once Redis has it (`SCRIPT LOAD` at every connect), `EVAL` until then, and
    /// `EVAL` again when Redis says NOSCRIPT (its scripts were flushed: they are loaded again). Scripts are
    /// loaded first thing on every connection, so NOSCRIPT only follows a `SCRIPT FLUSH` by an operator.
    private func eval(_ script: String, keys: Int, _ arguments: [[UInt8]], handler: @escaping (RedisReply?) -> Void) {
        let count = Array(String(keys).utf8)
        guard let sha = scriptSHAs[script] else {
            redis.command([Array("EVAL".utf8), Array(script.utf8), count] + arguments, handler: handler)
            return
        }
        redis.command([Array("EVALSHA".utf8), Array(sha.utf8), count] + arguments) { [weak self] reply in
            if case .error(let message)? = reply, message.hasPrefix("NOSCRIPT"), let self {
                self.scriptSHAs[script] = nil
                self.loadScripts()
                self.redis.command([Array("EVAL".utf8), Array(script.utf8), count] + arguments, handler: handler)
                return
            }
            handler(reply)
        }
    }

    private func loadScripts() {
        for script in ClusterScripts.all {
            redis.command(["SCRIPT", "LOAD", script]) { [weak self] reply in
                if let sha = reply?.text, sha.count == 40 { self?.scriptSHAs[script] = sha }
            }
        }
    }

    // MARK: leases

    private func renewAll() {
        for room in server.roomOrder where room.name != Room.mainName {
            let name = room.name
            let arguments = [ClusterScripts.ownerKey(name), ClusterScripts.roomsKey, ownerValue, String(Self.leaseMs), name,
                             ClusterScripts.encode(room.summary)]
            eval(ClusterScripts.renew, keys: 2, arguments.map { Array($0.utf8) }) { [weak self] reply in
                guard let self, case .string(let owner)? = reply else { return }
                self.lost(name, to: String(decoding: owner, as: UTF8.self))
            }
        }
    }

    /// Another server holds the lease of a room loaded here (this server stalled past its lease): the room is
    /// dropped without saving, and its members are redirected to the owner and moved to `main`.
    private func lost(_ name: String, to ownerValue: String) {
        guard let room = server.rooms[name], !stopping else { return }
        log.error("room \(name): lease taken by \(ownerValue) (this server missed its renewals); dropping it here")
        for session in room.seats.keys.sorted().compactMap({ server.sessions[$0] }) {
            if let redirect = redirect(name, ownerValue: ownerValue, id: nil) {
                session.reply(.redirect(redirect))
                server.metrics.fleetRedirected("lease_lost")
            }
            server.performJoin(JoinPlan(target: .loaded(server.mainRoom), roomAdmin: false), session: session, id: nil, extraAck: [])
        }
        server.forget(room)
        server.metrics.fleetRoomsLost += 1
    }

    /// Writes the room's state while this server owns it (the rooms' saves; `always` at unload and shutdown).
    func save(_ room: Room, always: Bool) {
        guard room.name != Room.mainName, room.unsaved || always, redis.isUp else { return }
        save(room, state: room.world.encodeState(tick: room.tick))
        // The file save (--state-dir) clears the flag itself; without one, Redis is the only copy.
        if room.statePath == nil { room.unsaved = false }
    }

    /// Writes a state the room's job encoded off the loop (Server+RoomRuns.swift) while this server owns it.
    func save(_ room: Room, state: [UInt8]) {
        guard room.name != Room.mainName, redis.isUp else { return }
        let name = room.name
        let arguments: [[UInt8]] = [Array(ClusterScripts.ownerKey(name).utf8), Array(ClusterScripts.stateKey(name).utf8),
                               Array(ClusterScripts.roomsKey.utf8), Array(ownerValue.utf8), state, Array(name.utf8),
                               Array(ClusterScripts.encode(room.summary).utf8)]
        eval(ClusterScripts.save, keys: 3, arguments) { [weak self] reply in
            if case .integer(0)? = reply { self?.log.warning("room \(name): state not written, another server owns it") }
        }
    }

    /// Releases the lease of a room this server stops holding (unload, shutdown, a claim that led nowhere).
    func release(_ name: String) {
        eval(ClusterScripts.release, keys: 1, [Array(ClusterScripts.ownerKey(name).utf8), Array(ownerValue.utf8)]) { _ in }
    }

    /// A room unloads here: its state goes to Redis, then its lease is released.
    func unloaded(_ room: Room) {
        save(room, always: true)
        release(room.name)
        directory[room.name] = FleetRoom(summary: room.summary, owner: nil, http: nil)
    }

    /// Shutdown: the rooms were saved (`saveRooms`); every lease is released, then the connection closes
    /// once Redis has answered (or after a second when it does not).
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        timer?.close()
        timer = nil
        for room in server.roomOrder where room.name != Room.mainName { release(room.name) }
        for name in claimed.keys { release(name) }
        guard redis.isOpen else { return }
        redis.close()
        // Redis answers the releases, then hiredis disconnects (redisDown closes this timer); a Redis that does
        // not answer is dropped after a second, so shutdown never hangs on it.
        if let timer = try? UVTimer(loop: server.loop) {
            try? timer.start(afterMs: 1000) { [weak self] in
                self?.redis.abort()
                self?.closeGuard()
            }
            guardTimer = timer
        }
    }

    private func closeGuard() {
        guardTimer?.close()
        guardTimer = nil
    }

    // MARK: joins

    /// Whether joining `name` needs the directory first: a valid room other than `main`, not loaded here.
    func mustClaim(_ name: String?) -> Bool {
        guard let name, name != Room.mainName, RoomName.isValid(name), !stopping else { return false }
        return server.rooms[name] == nil && claimed[name] == nil
    }

    /// Asks Redis who owns `name`, taking its lease when nobody does; then `proceed` (the join, which now finds
    /// the lease) or, for `session`, a `redirect` or `unavailable` answer to the message `id`. The session's
    /// later lines wait until this is settled.
    func claim(_ name: String, for session: ClientSession, id: MessageID?, proceed: @escaping () -> Void) {
        guard redis.isUp else {
            session.reply(.error(ProtocolError(.unavailable, "the fleet's room directory (Redis) cannot be reached; try again soon", id: id)))
            return
        }
        holding.insert(session.id)
        let waiter: (ClaimOutcome) -> Void = { [unowned self, weak session] outcome in
            guard let session else { return }
            self.holding.remove(session.id)
            if !session.closing {
                switch outcome {
                case .claimed(let state):
                    if self.server.rooms[name] == nil, self.claimed[name] == nil { self.adoptLease(name, state: state) }
                    proceed()
                    self.settle(name)
                case .ownedElsewhere(let owner):
                    if let redirect = self.redirect(name, ownerValue: owner, id: id) {
                        session.reply(.redirect(redirect))
                        self.server.metrics.fleetRedirected("join")
                    } else {
                        session.reply(.error(ProtocolError(.unavailable, "room \(name) has an owner this server cannot read", id: id)))
                    }
                case .unavailable:
                    session.reply(.error(ProtocolError(.unavailable, "the fleet's room directory (Redis) cannot be reached; try again soon", id: id)))
                }
                session.flushReplies()
            }
            self.drain(session)
        }
        if claims[name] != nil {
            claims[name]?.append(waiter)
            return
        }
        claims[name] = [waiter]
        let arguments = [ClusterScripts.ownerKey(name), ClusterScripts.stateKey(name), ownerValue, String(Self.leaseMs)]
        eval(ClusterScripts.claim, keys: 2, arguments.map { Array($0.utf8) }) { [weak self] reply in
            guard let self else { return }
            let outcome: ClaimOutcome
            switch reply {
            case .array(let parts)? where parts.first == .integer(1):
                if case .string(let state)? = parts.dropFirst().first { outcome = .claimed(state: state) } else { outcome = .claimed(state: nil) }
            case .array(let parts)? where parts.count == 2:
                outcome = parts[1].text.map(ClaimOutcome.ownedElsewhere) ?? .unavailable
            default:
                outcome = .unavailable
            }
            let waiters = self.claims.removeValue(forKey: name) ?? []
            if waiters.isEmpty, case .claimed = outcome { self.release(name) }
            for waiter in waiters { waiter(outcome) }
        }
    }

    /// A lease just taken: the room's saved state (if any) is what the join restores.
    private func adoptLease(_ name: String, state: [UInt8]?) {
        claimed[name] = .some(state)
        if state != nil, server.unloadedRooms[name] == nil {
            let summary = directory[name]?.summary ?? RoomSummary(name: name, clients: 0, bodies: 0, scene: server.config.scene,
                                                                   paused: true, held: false, loaded: false)
            server.unloadedRooms[name] = UnloadedRoom(summary: summary, roomToken: nil)
        }
    }

    /// After the join that took a lease: when the room did not load (the join failed), the lease goes back.
    private func settle(_ name: String) {
        guard server.rooms[name] == nil, let state = claimed.removeValue(forKey: name) else { return }
        if state != nil, server.config.stateDir == nil { server.unloadedRooms[name] = nil }
        release(name)
    }

    /// Called when a room loads here (the registry): restores the state the claim read from Redis.
    func loaded(_ room: Room) {
        guard let state = claimed.removeValue(forKey: room.name) else { return }
        guard let bytes = state else { return }
        do {
            room.tick = try room.world.restoreState(bytes)
            room.unsaved = false
            log.notice("room \(room.name): restored from the fleet's state: \(room.world.animator.itemCount) items, tick \(room.tick)")
        } catch {
            log.error("room \(room.name): the state in Redis is unusable (\(error)); starting with its scene")
        }
    }

    /// Whether `session`'s lines wait for a claim; `hold` keeps one for later.
    func isHolding(_ session: ClientSession) -> Bool { holding.contains(session.id) }

    func hold(_ line: UnsafeRawBufferPointer, for session: ClientSession) {
        held[session.id, default: []].append(Array(line))
    }

    /// Handles the lines a session sent while it waited, in order, until one of them waits again.
    private func drain(_ session: ClientSession) {
        while !holding.contains(session.id), !session.closing, var lines = held[session.id], !lines.isEmpty {
            let line = lines.removeFirst()
            held[session.id] = lines.isEmpty ? nil : lines
            line.withUnsafeBytes { server.handleLine($0, from: session) }
        }
        if session.closing { held[session.id] = nil }
    }

    // MARK: redirects and the list

    /// The redirect to the owner named by a lease value (`HOST:PORT HTTP_BASE`).
    func redirect(_ room: String, ownerValue: String, id: MessageID?) -> Redirect? {
        let parts = ownerValue.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let colon = parts[0].lastIndex(of: ":"), let port = Int(parts[0][parts[0].index(after: colon)...]) else {
            return nil
        }
        var host = String(parts[0][..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return Redirect(room: room, host: host, port: port, http: "\(parts[1])/r/\(room)", id: id)
    }

    /// `GET /r/NAME` on a server that does not own NAME while another one does: the owner's page.
    func ownerPage(of name: String) -> String? {
        guard server.rooms[name] == nil, let entry = directory[name], let owner = entry.owner, owner != me,
              let http = entry.http else { return nil }
        return "\(http)/r/\(name)"
    }

    private func refresh() {
        eval(ClusterScripts.list, keys: 1, [Array(ClusterScripts.roomsKey.utf8)]) { [weak self] reply in
            guard let self, case .array(let flat)? = reply else { return }
            var fresh: [String: FleetRoom] = [:]
            var i = 0
            while i + 2 < flat.count {
                if let name = flat[i].text, let summary = flat[i + 1].text.flatMap({ ClusterScripts.decode(name: name, $0) }) {
                    let value = flat[i + 2].text ?? ""
                    let parts = value.split(separator: " ", maxSplits: 1)
                    fresh[name] = FleetRoom(summary: summary, owner: parts.first.map(String.init),
                                            http: parts.count == 2 ? String(parts[1]) : nil)
                }
                i += 3
            }
            self.directory = fresh
        }
    }

    /// `rooms` and `GET /rooms` in a fleet: this server's rooms (its `main` included) and every other room
    /// of the directory, each loaded one with its owner, sorted by name.
    func summaries(local: [RoomSummary]) -> [RoomSummary] {
        var byName: [String: RoomSummary] = [:]
        for (name, entry) in directory {
            var summary = entry.summary
            summary.owner = entry.owner == me ? nil : entry.owner
            summary.loaded = summary.owner != nil
            if !summary.loaded { summary.clients = 0 }
            byName[name] = summary
        }
        for var summary in local where summary.loaded || byName[summary.name] == nil {
            if summary.loaded { summary.owner = me }
            byName[summary.name] = summary
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}
