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
    var lastListMs: UInt64 = 0
    private var backoffMs: UInt64 = 250
    private var nextConnectMs: UInt64 = 0
    private(set) var downReason: String? = "connecting"
    /// The fleet's live rooms as last listed (ClusterDirectory+List.swift), and the change number and
    /// sequence (`gen`) that copy is at (-1: none yet; the next list reads everything).
    var directory: [String: FleetRoom] = [:]
    var listSeq = -1
    var listGen = ""
    /// The one table of the rooms this server claims, holds or releases: each room's lifecycle
    /// (RoomLifecycle.swift), changed only through its transitions (ClusterDirectory+Lifecycle.swift).
    var lifecycles: [String: RoomLifecycle] = [:]
    /// Sessions waiting for a claim, and the lines they sent meanwhile (per session, not per room: a
    /// session waits for one claim at a time).
    var holding: Set<Int> = []
    var held: [Int: [[UInt8]]] = [:]
    private(set) var stopping = false
    /// Each script's SHA1 in Redis (`SCRIPT LOAD`), for `EVALSHA`.
    private var scriptSHAs: [String: String] = [:]
    /// At shutdown: bounds the wait for Redis' last answers.
    private var guardTimer: UVTimer?
    /// Redis' clock as last seen (a heartbeat's answer) and the loop time it was seen at.
    private var redisClock: (redisMs: Int, localMs: UInt64)?
    /// Whether this server has seen this fleet's Redis answer before (an empty Redis then means a restart).
    private(set) var seenRedis = false

    var ownerValue: String { "\(me) \(httpBase)" }
    var log: Logger { server.log }
    var leaseArgument: String { String(RoomLifecycle.leaseMs) }
    var ttlArgument: String { String(Int(server.config.roomTTLS * 1000)) }

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
    var redisNowMs: Int? {
        redisClock.map { $0.redisMs + Int(server.loop.nowMs &- $0.localMs) }
    }

    private func redisUp() {
        let wasDown = downReason
        downReason = nil
        backoffMs = 250
        log.notice("redis: connected to \(redis.host):\(redis.port)\(wasDown.map { " (was: \($0))" } ?? ""); registering \(lifecycles.count) rooms")
        scriptSHAs.removeAll()
        loadScripts()
        // Re-registration: leases (under their epochs) and state for every room held here; the list is read
        // whole again (this Redis may have lost its change log).
        listSeq = -1
        heartbeat()
        lastRenewMs = server.loop.nowMs
        renewAll()
        for room in server.roomOrder where lifecycles[room.name]?.holdsLease == true { lifecycles[room.name]?.saveDirty = true }
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
    func eval(_ script: String, keys: [String], _ arguments: [String], handler: @escaping (RedisReply?) -> Void) {
        eval(script, keys: keys.map { Array($0.utf8) }, arguments.map { Array($0.utf8) }, handler: handler)
    }

    func eval(_ script: String, keys: [[UInt8]], _ arguments: [[UInt8]], handler: @escaping (RedisReply?) -> Void) {
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

    /// The number of rooms this server holds in the fleet (live or fenced).
    var heldRooms: Int { lifecycles.values.filter(\.holdsLease).count }

    /// Shutdown: the rooms were saved (`saveRooms`); every lease is released, then the connection closes
    /// once Redis has answered (or after a second when it does not).
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        timer?.close()
        timer = nil
        for name in lifecycles.keys.sorted() { release(name, reason: "shutdown") }
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
}
