import DynRoom
import Logging
import NetProtocol
import NetLoop

/// A room of the fleet as the directory last listed it.
struct FleetRoom {
    var summary: RoomSummary
    /// `HOST:PORT` of the server holding its lease; nil when nobody does.
    var owner: String?
    /// The owner's page base (`http://HOST:PORT`).
    var http: String?
}

/// This server's part in the fleet (docs/DEPLOY.md; docs/ARCHITECTURE.md, The room lifecycle in a fleet):
/// fenced leases on the rooms it loads, their state in Redis, redirects, and the fleet-wide room list.
///
/// Guarantees: every room other than `main` that this server loads was claimed first and has a
/// `RoomLifecycle` here; its lease is renewed every second under its epoch, and past the local deadline
/// (lease minus margin, monotonic clock) the room is fenced until a renewal is confirmed; a room whose epoch
/// moved on is dropped unsaved and its members redirected to the new owner; saves carry the epoch and are
/// marked done only when Redis confirms them (else retried on the next round); a claim carries a deadline
/// on Redis' clock, so one that waited in a stalled Redis never takes effect after this server gave up on
/// it; while Redis is away, joins that need the directory get `unavailable` and the connection is retried
/// (RedisConnection: connect timeout, stall detection; backoff 250 ms doubling to 1 s), re-registering every
/// loaded room as soon as Redis answers again. A session waiting for a claim has at most `maxHeldLines`
/// later lines held (rate-limited as any line) and handled in order afterwards.
final class ClusterDirectory {
    unowned let server: Server
    let redis: RedisConnection
    /// `HOST:PORT`, the advertised TCP address.
    let me: String
    /// `http://HOST:PORT` (or `--advertise-http`), the base of this server's pages.
    let httpBase: String
    static let renewMs: UInt64 = 1000
    static let heartbeatMs: UInt64 = 250
    /// A gap this long between heartbeats means Redis itself stalled (ClusterScripts.clock).
    static let redisGapMs = 2500
    /// How long a claim may wait in Redis (on Redis' clock) before the script refuses it.
    static let claimWindowMs = 500
    static let listMs: UInt64 = 3000
    static let maxHeldLines = 64

    private var timer: UVTimer?
    private var lastRenewMs: UInt64 = 0
    private var lastHeartbeatMs: UInt64 = 0
    private var lastListMs: UInt64 = 0
    private var backoffMs: UInt64 = 250
    private var nextConnectMs: UInt64 = 0
    private(set) var downReason: String? = "connecting"
    private(set) var directory: [String: FleetRoom] = [:]
    /// Every room this server claims or holds: its lifecycle (RoomLifecycle.swift).
    private(set) var lifecycles: [String: RoomLifecycle] = [:]
    /// Claims in flight, by room: everyone waiting for the answer.
    private var claims: [String: [(ClaimOutcome) -> Void]] = [:]
    /// What a claim read from Redis for a room not loaded yet: its state and token.
    private var claimed: [String: (state: [UInt8]?, token: String?)] = [:]
    /// Sessions waiting for a claim, and the lines they sent meanwhile.
    private var holding: Set<Int> = []
    private var held: [Int: [[UInt8]]] = [:]
    private var stopping = false
    /// Each script's SHA1 in Redis (`SCRIPT LOAD`), for `EVALSHA`.
    private var scriptSHAs: [String: String] = [:]
    /// At shutdown: bounds the wait for Redis' last answers.
    private var guardTimer: UVTimer?
    /// Redis' clock as last seen (a heartbeat's answer) and the loop time it was seen at.
    private var redisClock: (redisMs: Int, localMs: UInt64)?
    /// Whether this server has seen this fleet's Redis answer before (an empty Redis then means a restart).
    private var seenRedis = false

    enum ClaimOutcome {
        case claimed
        case ownedElsewhere(String)
        case unavailable(String)
    }

    var ownerValue: String { "\(me) \(httpBase)" }
    var log: Logger { server.log }
    private var leaseArgument: String { String(RoomLifecycle.leaseMs) }
    private var ttlArgument: String { String(Int(server.config.roomTTLS * 1000)) }

    init(server: Server, address: RedisAddress, me: String, httpBase: String) {
        self.server = server
        self.me = me
        self.httpBase = httpBase
        redis = RedisConnection(loop: server.loop, host: address.host, port: address.port, database: address.database,
                                password: address.password)
        redis.onUp = { [unowned self] in self.redisUp() }
        redis.onDown = { [unowned self] reason in self.redisDown(reason) }
    }

    /// Connects and starts the heartbeats and renewals.
    func start() throws {
        let timer = try UVTimer(loop: server.loop)
        try timer.start(afterMs: 0, repeatMs: Self.heartbeatMs) { [unowned self] in self.housekeeping() }
        self.timer = timer
        redis.connect()
    }

    /// Why the directory cannot be used now (nil: Redis answers): `/readyz` and the joins that need it.
    var problem: String? {
        if let reason = downReason { return "redis unavailable (\(reason))" }
        if redisClock == nil { return "redis unavailable (waiting for its clock)" }
        return nil
    }

    private func housekeeping() {
        let now = server.loop.nowMs
        redis.check()
        if !redis.isOpen, now >= nextConnectMs, !stopping { redis.connect() }
        checkDeadlines()
        guard redis.isUp else { return }
        if now &- lastHeartbeatMs >= Self.heartbeatMs { heartbeat() }
        if now &- lastRenewMs >= Self.renewMs {
            lastRenewMs = now
            renewAll()
        }
        if now &- lastListMs >= Self.listMs { refresh() }
    }

    private func heartbeat() {
        lastHeartbeatMs = server.loop.nowMs
        eval(ClusterScripts.heartbeat, keys: [ClusterScripts.clockKey, ClusterScripts.resumedKey],
             [seenRedis ? "1" : "0", String(Self.redisGapMs), leaseArgument]) { [weak self] reply in
            guard let self, case .integer(let ms)? = reply else { return }
            let first = self.redisClock == nil
            self.redisClock = (ms, self.server.loop.nowMs)
            self.seenRedis = true
            if first { self.log.notice("redis: answering; \(self.lifecycles.count) rooms registered again") }
        }
    }

    /// Redis' clock now, as last seen (nil until a heartbeat was answered on this connection).
    private var redisNowMs: Int? {
        redisClock.map { $0.redisMs + Int(server.loop.nowMs &- $0.localMs) }
    }

    private func redisUp() {
        let wasDown = downReason
        downReason = nil
        backoffMs = 250
        log.notice("redis: connected to \(redis.host):\(redis.port)\(wasDown.map { " (was: \($0))" } ?? ""); registering \(lifecycles.count) rooms")
        scriptSHAs.removeAll()
        loadScripts()
        // Re-registration: leases (under their epochs) and state for every room held here.
        heartbeat()
        lastRenewMs = server.loop.nowMs
        renewAll()
        for room in server.roomOrder where lifecycles[room.name] != nil { lifecycles[room.name]?.saveDirty = true }
        saveAll(always: false)
        refresh()
    }

    private func redisDown(_ reason: String) {
        redisClock = nil
        if stopping {
            closeGuard()
            return
        }
        if downReason == nil || downReason == "connecting" {
            log.warning("redis: \(reason); rooms keep running until their lease deadline, joins that need the directory are unavailable")
        }
        downReason = reason
        nextConnectMs = server.loop.nowMs + backoffMs
        backoffMs = min(backoffMs * 2, 1000)
    }

    // MARK: scripts

    /// Runs a script: `EVALSHA` once Redis has it (`SCRIPT LOAD` at every connect), `EVAL` until then, and
    /// `EVAL` again when Redis says NOSCRIPT (its scripts were flushed: they are loaded again).
    private func eval(_ script: String, keys: [String], _ arguments: [String], handler: @escaping (RedisReply?) -> Void) {
        eval(script, keys: keys.map { Array($0.utf8) }, arguments.map { Array($0.utf8) }, handler: handler)
    }

    private func eval(_ script: String, keys: [[UInt8]], _ arguments: [[UInt8]], handler: @escaping (RedisReply?) -> Void) {
        let count = Array(String(keys.count).utf8)
        guard let sha = scriptSHAs[script] else {
            redis.command([Array("EVAL".utf8), Array(script.utf8), count] + keys + arguments, handler: handler)
            return
        }
        redis.command([Array("EVALSHA".utf8), Array(sha.utf8), count] + keys + arguments) { [weak self] reply in
            if case .error(let message)? = reply, message.hasPrefix("NOSCRIPT"), let self {
                self.scriptSHAs[script] = nil
                self.loadScripts()
                self.redis.command([Array("EVAL".utf8), Array(script.utf8), count] + keys + arguments, handler: handler)
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

    // MARK: the lifecycle

    /// Whether room `name` may step and take commands here: false while it is fenced (its lease deadline
    /// passed without a confirmed renewal). Rooms outside the fleet (`main`) always may.
    func isActive(_ name: String) -> Bool {
        guard lifecycles[name] != nil else { return true }
        if lifecycles[name]!.checkDeadline(nowNs: EventLoop.hrtimeNs) { fenced(name) }
        return lifecycles[name]!.isActive
    }

    private func checkDeadlines() {
        let now = EventLoop.hrtimeNs
        for name in lifecycles.keys.sorted() where lifecycles[name]!.checkDeadline(nowNs: now) { fenced(name) }
    }

    /// Rooms held here now for want of a confirmed renewal (dyn_fleet_rooms_fenced).
    var fencedRooms: Int {
        let now = EventLoop.hrtimeNs
        return lifecycles.values.filter { $0.phase == .fenced || ($0.phase == .live && now >= $0.deadlineNs) }.count
    }

    private func fenced(_ name: String) {
        log.warning("room \(name): lease not renewed within \(RoomLifecycle.leaseMs - RoomLifecycle.marginMs) ms; held (no steps, commands unavailable) until Redis confirms a renewal")
    }

    private func renewAll() {
        for room in server.roomOrder {
            guard let lifecycle = lifecycles[room.name], lifecycle.phase == .live || lifecycle.phase == .fenced,
                  let epoch = lifecycle.epoch else { continue }
            let name = room.name
            let sentNs = EventLoop.hrtimeNs
            eval(ClusterScripts.renew,
                 keys: [ClusterScripts.ownerKey(name), ClusterScripts.epochKey(name), ClusterScripts.roomsKey,
                        ClusterScripts.stateKey(name), ClusterScripts.tokenKey(name)],
                 [epoch, ownerValue, leaseArgument, name, ClusterScripts.encode(room.summary), ttlArgument]) { [weak self] reply in
                guard let self, self.lifecycles[name]?.epoch == epoch else { return }
                switch reply {
                case .array(let parts)? where parts.first == .integer(1):
                    let wasFenced = self.lifecycles[name]?.phase == .fenced
                    self.lifecycles[name]?.renewed(sentNs: sentNs, nowNs: EventLoop.hrtimeNs)
                    if wasFenced, self.lifecycles[name]?.phase == .live {
                        self.log.notice("room \(name): lease renewed under epoch \(epoch); running again")
                    }
                case .array(let parts)? where parts.first == .integer(0):
                    self.server.metrics.fleetEpochRefusals += 1
                    self.lost(name, to: parts.dropFirst().first?.text)
                case .array(let parts)? where parts.first == .integer(-1):
                    self.server.metrics.fleetEpochRefusals += 1
                    self.lost(name, to: nil)
                default:
                    break
                }
            }
        }
    }

    /// The room's epoch moved on (another server claimed it while this one was stalled or cut off): the room
    /// is dropped without saving, and its members are redirected to the owner (or, with none, moved to main).
    private func lost(_ name: String, to ownerValue: String?) {
        guard let room = server.rooms[name], !stopping else { return }
        lifecycles[name]?.end()
        lifecycles[name] = nil
        log.error("room \(name): lease taken by \(ownerValue ?? "another server, since released") (this server missed its renewals); dropping it here unsaved")
        for session in room.seats.keys.sorted().compactMap({ server.sessions[$0] }) {
            if let ownerValue, let redirect = redirect(name, ownerValue: ownerValue, id: nil) {
                session.reply(.redirect(redirect))
                server.metrics.fleetRedirected("lease_lost")
            }
            server.performJoin(JoinPlan(target: .loaded(server.mainRoom), roomAdmin: false), session: session, id: nil, extraAck: [])
        }
        server.forget(room)
        server.metrics.fleetRoomsLost += 1
    }

    /// Writes the room's state under its epoch while this server holds it (the rooms' saves; `always` at
    /// creation, unload and shutdown). Done only when Redis confirms; a refused or failed save is retried on
    /// the next round.
    func save(_ room: Room, always: Bool) {
        // Off the loop while the workers run: the room's next job encodes the state (Server+RoomRuns.swift),
        // which comes back here through save(_:state:).
        if !server.shuttingDown {
            server.requestSave(room, reason: "fleet", always: always)
            return
        }
        save(room, always: always, state: nil)
    }

    /// Writes a state the room's save job encoded off the loop (Server+RoomRuns.swift).
    func save(_ room: Room, state: [UInt8]) { save(room, always: true, state: state) }

    /// The save itself: `given` is the encoded state, or nil to encode it here (shutdown: no workers).
    private func save(_ room: Room, always: Bool, state given: [UInt8]?) {
        guard let lifecycle = lifecycles[room.name], let epoch = lifecycle.epoch, lifecycle.phase != .gone else { return }
        guard room.unsaved || lifecycle.saveDirty || always else { return }
        let name = room.name
        guard redis.isUp, lifecycle.phase != .fenced || always else {
            lifecycles[name]?.saveDirty = true
            return
        }
        let state = given ?? room.world.encodeState(tick: room.tick)
        lifecycles[name]?.saveDirty = false
        // The file save (--state-dir) clears the flag itself; without one, Redis is the only copy.
        if room.statePath == nil { room.unsaved = false }
        eval(ClusterScripts.save,
             keys: [ClusterScripts.ownerKey(name), ClusterScripts.epochKey(name), ClusterScripts.stateKey(name),
                    ClusterScripts.tokenKey(name)].map { Array($0.utf8) },
             [Array(epoch.utf8), state, Array((room.roomToken ?? "").utf8), Array(ttlArgument.utf8)]) { [weak self] reply in
            guard let self else { return }
            if case .integer(1)? = reply { return }
            self.server.metrics.fleetSavesFailed += 1
            if case .integer(0)? = reply {
                self.server.metrics.fleetEpochRefusals += 1
                self.log.warning("room \(name): state not written, epoch \(epoch) is no longer the room's")
            }
            if self.lifecycles[name]?.epoch == epoch { self.lifecycles[name]?.saveDirty = true }
        }
    }

    private func saveAll(always: Bool) {
        for room in server.roomOrder where lifecycles[room.name] != nil { save(room, always: always) }
    }

    /// Releases a lease this server stops holding (unload, shutdown, a claim that led nowhere).
    private func release(_ name: String) {
        guard let epoch = lifecycles[name]?.epoch else {
            lifecycles[name] = nil
            return
        }
        lifecycles[name]?.release()
        eval(ClusterScripts.release,
             keys: [ClusterScripts.ownerKey(name), ClusterScripts.roomsKey, ClusterScripts.epochKey(name),
                    ClusterScripts.stateKey(name), ClusterScripts.tokenKey(name)],
             [epoch, name, ttlArgument]) { _ in }
        lifecycles[name]?.end()
        lifecycles[name] = nil
    }

    /// A room unloads here: its state goes to Redis, then its lease is released (in this order on the one
    /// connection, so Redis writes the state first).
    func unloaded(_ room: Room) {
        save(room, always: true)
        release(room.name)
        directory[room.name] = nil
    }

    /// The number of rooms this server holds in the fleet (live or fenced).
    var heldRooms: Int { lifecycles.values.filter { $0.phase == .live || $0.phase == .fenced }.count }

    /// Shutdown: the rooms were saved (`saveRooms`); every lease is released, then the connection closes
    /// once Redis has answered (or after a second when it does not).
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        timer?.close()
        timer = nil
        for name in lifecycles.keys.sorted() { release(name) }
        guard redis.isOpen else { return }
        redis.close()
        guard redis.isOpen else { return }
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
        guard let name, name != Room.mainName, RoomName.isValid(name), !stopping, !server.draining else { return false }
        return server.rooms[name] == nil && claimed[name] == nil
    }

    /// Asks Redis who owns `name`, taking its lease (a new epoch) when nobody does; then `proceed` (the join,
    /// which now finds the lease) or, for `session`, a `redirect` or `unavailable` answer to the message `id`.
    /// The session's later lines wait until this is settled.
    func claim(_ name: String, for session: ClientSession, id: MessageID?, proceed: @escaping () -> Void) {
        guard problem == nil, let redisNow = redisNowMs else {
            session.reply(.error(ProtocolError(.unavailable, "the fleet's room directory (Redis) cannot be reached; try again soon", id: id)))
            return
        }
        holding.insert(session.id)
        let waiter: (ClaimOutcome) -> Void = { [unowned self, weak session] outcome in
            guard let session else { return }
            self.holding.remove(session.id)
            if !session.closing {
                switch outcome {
                case .claimed:
                    proceed()
                    self.settle(name)
                case .ownedElsewhere(let owner):
                    if let redirect = self.redirect(name, ownerValue: owner, id: id) {
                        session.reply(.redirect(redirect))
                        self.server.metrics.fleetRedirected("join")
                    } else {
                        session.reply(.error(ProtocolError(.unavailable, "room \(name) has an owner this server cannot read", id: id)))
                    }
                case .unavailable(let why):
                    session.reply(.error(ProtocolError(.unavailable, why, id: id)))
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
        lifecycles[name] = RoomLifecycle()
        let sentNs = EventLoop.hrtimeNs
        eval(ClusterScripts.claim,
             keys: [ClusterScripts.ownerKey(name), ClusterScripts.epochKey(name), ClusterScripts.stateKey(name),
                    ClusterScripts.tokenKey(name), ClusterScripts.clockKey, ClusterScripts.resumedKey],
             [ownerValue, leaseArgument, String(redisNow + Self.claimWindowMs), seenRedis ? "1" : "0",
              String(Self.redisGapMs)]) { [weak self] reply in
            guard let self else { return }
            let outcome = self.claimAnswered(name, reply: reply, sentNs: sentNs)
            let waiters = self.claims.removeValue(forKey: name) ?? []
            if waiters.isEmpty, case .claimed = outcome { self.settle(name) }
            for waiter in waiters { waiter(outcome) }
        }
    }

    private func claimAnswered(_ name: String, reply: RedisReply?, sentNs: UInt64) -> ClaimOutcome {
        let unavailable = "the fleet's room directory (Redis) cannot be reached; try again soon"
        switch reply {
        case .array(let parts)? where parts.first == .integer(1) && parts.count == 5:
            guard let epoch = parts[1].text, server.rooms[name] == nil else { break }
            lifecycles[name, default: RoomLifecycle()].claimed(epoch: epoch, sentNs: sentNs)
            var state: [UInt8]?
            if case .string(let bytes) = parts[2] { state = bytes }
            let token = parts[3].text.flatMap { $0.count == 32 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }
            claimed[name] = (state, token)
            if state != nil || token != nil, server.unloadedRooms[name] == nil {
                let summary = directory[name]?.summary ?? RoomSummary(name: name, clients: 0, bodies: 0, scene: server.config.scene,
                                                                       paused: true, held: false, loaded: false)
                server.unloadedRooms[name] = UnloadedRoom(summary: summary, roomToken: token)
            }
            log.info("room \(name): claimed under epoch \(epoch)")
            return .claimed
        case .array(let parts)? where parts.first == .integer(0) && parts.count == 2:
            lifecycles[name] = nil
            guard let owner = parts[1].text else { break }
            if owner == ownerValue {
                // A lease of this address from an earlier run of this server: it lapses within a lease.
                return .unavailable("room \(name) is still leased to an earlier run of this server; try again in a few seconds")
            }
            return .ownedElsewhere(owner)
        case .array(let parts)? where parts.first == .integer(-1):
            lifecycles[name] = nil
            return .unavailable(parts.dropFirst().first?.text == "resuming"
                ? "the fleet's room directory (Redis) just resumed; rooms' owners register again; try again soon"
                : unavailable)
        default:
            break
        }
        if lifecycles[name]?.phase == .claiming { lifecycles[name] = nil }
        return .unavailable(unavailable)
    }

    /// After the join that took a lease: when the room did not load (the join failed), the lease goes back.
    private func settle(_ name: String) {
        guard server.rooms[name] == nil, let read = claimed.removeValue(forKey: name) else { return }
        if read.state != nil || read.token != nil, server.config.stateDir == nil { server.unloadedRooms[name] = nil }
        release(name)
    }

    /// Called when a room loads here (the registry): restores the state the claim read from Redis.
    func loaded(_ room: Room) {
        guard let read = claimed.removeValue(forKey: room.name) else { return }
        if room.roomToken == nil, let token = read.token { room.roomToken = token }
        guard let bytes = read.state else { return }
        do {
            room.tick = try room.world.restoreState(bytes)
            room.unsaved = false
            // A recording starts where the room's history does: its header is written again for the
            // restored state (the file is reopened; the header of the scene it replaced goes).
            if room.recorder != nil, let dir = server.config.recordDir {
                room.recorder = nil
                room.startRecording(dir: dir)
            }
            log.notice("room \(room.name): restored from the fleet's state: \(room.world.animator.itemCount) items, tick \(room.tick)")
        } catch {
            log.error("room \(room.name): the state in Redis is unusable (\(error)); starting with its scene")
        }
    }

    /// Whether `session`'s lines wait for a claim; `hold` keeps one for later.
    func isHolding(_ session: ClientSession) -> Bool { holding.contains(session.id) }

    /// Keeps a line for after the claim, within the session's rate limit and at most `maxHeldLines`.
    func hold(_ line: UnsafeRawBufferPointer, for session: ClientSession) {
        guard session.bucket.take(nowNs: EventLoop.hrtimeNs), held[session.id, default: []].count < Self.maxHeldLines else {
            session.reply(.error(ProtocolError(.rateLimited, "too many lines while a join waits for the fleet's directory (at most \(Self.maxHeldLines))")))
            return
        }
        held[session.id, default: []].append(Array(line))
    }

    /// Handles the lines a session sent while it waited, in order, until one of them waits again.
    private func drain(_ session: ClientSession) {
        while !holding.contains(session.id), !session.closing, var lines = held[session.id], !lines.isEmpty {
            let line = lines.removeFirst()
            held[session.id] = lines.isEmpty ? nil : lines
            // The line's token was taken when it was held.
            session.bucket.refund()
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

    /// Asks for the list now when it is older than a second (someone is looking at it).
    func wantFreshList() {
        if redis.isUp, server.loop.nowMs &- lastListMs >= 1000 { refresh() }
    }

    private func refresh() {
        lastListMs = server.loop.nowMs
        eval(ClusterScripts.list, keys: [ClusterScripts.roomsKey], [leaseArgument]) { [weak self] reply in
            guard let self, case .array(let flat)? = reply, let now = flat.first?.text.flatMap({ Int($0) }) else { return }
            var fresh: [String: FleetRoom] = [:]
            var i = 1
            while i + 1 < flat.count {
                if let name = flat[i].text, let entry = flat[i + 1].text.flatMap({ ClusterScripts.decodeEntry(name: name, $0) }),
                   entry.untilMs > now {
                    let parts = entry.owner.split(separator: " ", maxSplits: 1)
                    fresh[name] = FleetRoom(summary: entry.summary, owner: parts.first.map(String.init),
                                            http: parts.count == 2 ? String(parts[1]) : nil)
                }
                i += 2
            }
            self.directory = fresh
        }
    }

    /// `rooms` and `GET /rooms` in a fleet: this server's rooms (its `main` included) and every other live
    /// room of the directory with its owner, sorted by name.
    func summaries(local: [RoomSummary]) -> [RoomSummary] {
        wantFreshList()
        var byName: [String: RoomSummary] = [:]
        for (name, entry) in directory where entry.owner != me {
            var summary = entry.summary
            summary.owner = entry.owner
            summary.loaded = true
            byName[name] = summary
        }
        for var summary in local where summary.loaded || byName[summary.name] == nil {
            if summary.loaded { summary.owner = me }
            byName[summary.name] = summary
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}
