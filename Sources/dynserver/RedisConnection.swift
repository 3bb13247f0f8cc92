import CHiredis
import CLibUV
import NetProtocol
import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// A Redis reply, copied out of hiredis' memory (which is freed when the callback returns).
enum RedisReply: Equatable {
    case string([UInt8])
    case integer(Int)
    case array([RedisReply])
    case null
    case status(String)
    case error(String)

    init(_ reply: UnsafePointer<redisReply>) {
        let r = reply.pointee
        switch r.type {
        case REDIS_REPLY_STRING:
            self = .string(r.str.map { Array(UnsafeRawBufferPointer(start: $0, count: r.len)) } ?? [])
        case REDIS_REPLY_INTEGER:
            self = .integer(Int(r.integer))
        case REDIS_REPLY_ARRAY:
            self = .array((0..<Int(r.elements)).compactMap { i in r.element[i].map { RedisReply(UnsafePointer($0)) } })
        case REDIS_REPLY_STATUS:
            self = .status(r.str.map { String(cString: $0) } ?? "")
        case REDIS_REPLY_ERROR:
            self = .error(r.str.map { String(cString: $0) } ?? "error")
        default:
            self = .null
        }
    }

    /// The text of a string or status reply.
    var text: String? {
        switch self {
        case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let s): return s
        default: return nil
        }
    }
}

/// One asynchronous hiredis connection on the server's loop (docs/DEPLOY.md, Redis): commands go out as
/// argument vectors (hiredis writes the protocol), replies come back in callbacks on the loop thread. Nothing
/// here blocks the loop: a host name is resolved with `uv_getaddrinfo` (libuv's thread pool) and hiredis is
/// given the address, so its own connect never looks a name up. hiredis is attached with our copy of its
/// libuv adapter (CHiredis/shim.h) whose error path calls back, so a refused connect is reported.
///
/// Guarantees: every `command` handler is called exactly once, on the loop thread: with the reply, or with
/// nil when the connection is lost, aborted or not up (then synchronously). The connection counts as up
/// only once Redis has answered: AUTH (when the address has a password), SELECT (a database other than 0)
/// and a PING, all answered; then `onUp`. `onDown` is told once per connection that was up or tried. `check`
/// (called by the owner every ~250 ms) drops a connection whose connect or handshake takes longer than
/// `connectTimeoutMs`, or that has awaited a reply for longer than `stallMs` (a stalled or cut-off Redis).
/// `close()` lets the replies already asked for arrive, then disconnects; `abort()` drops the connection at
/// once (pending handlers get nil). hiredis frees the context itself (after a failed connect, a disconnect
/// or `redisAsyncFree`) and the adapter tells this object when it does, so a context is freed exactly once
/// and a closed connection leaves no handle on the loop.
final class RedisConnection {
    let host: String
    let port: Int
    let database: Int
    let password: String?
    var onUp: (() -> Void)?
    var onDown: ((String) -> Void)?
    static let connectTimeoutMs: UInt64 = 1000
    static let stallMs: UInt64 = 1000
    private let loop: EventLoop
    private var context: UnsafeMutablePointer<redisAsyncContext>?
    private(set) var isUp = false
    /// When the current connection attempt started (nil: none, or up).
    private var connectingSinceMs: UInt64?
    /// The loop time the oldest reply still awaited was asked for, or the last reply came (a stalled Redis
    /// is noticed by `check`).
    private(set) var waitingSinceMs: UInt64?
    private var outstanding = 0
    /// The round-trip time of the last command answered (dyn_fleet_redis_latency_seconds).
    private(set) var lastLatencyMs: UInt64 = 0

    init(loop: EventLoop, host: String, port: Int, database: Int, password: String? = nil) {
        self.loop = loop
        self.host = host
        self.port = port
        self.database = database
        self.password = password
    }

    /// Starts connecting (no-op while a connection exists or a name is being resolved).
    func connect() {
        guard context == nil, !resolving else { return }
        wanted = true
        connectingSinceMs = loop.nowMs
        if Self.isAddress(host) {
            open(host)
            return
        }
        resolving = true
        let request = UnsafeMutablePointer<uv_getaddrinfo_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let rc = uv_getaddrinfo(loop.uvLoop, request, { request, status, result in
            guard let request, let data = request.pointee.data else { return }
            let connection = Unmanaged<RedisConnection>.fromOpaque(data).takeRetainedValue()
            request.deallocate()
            defer { if let result { uv_freeaddrinfo(result) } }
            connection.resolving = false
            guard connection.wanted else { return }
            guard status == 0, let address = result?.pointee.ai_addr.flatMap(RedisConnection.text(of:)) else {
                connection.failed("cannot resolve \(connection.host): \(String(cString: uv_strerror(status)))")
                return
            }
            connection.open(address)
        }, host, nil, &hints)
        if rc != 0 {
            Unmanaged<RedisConnection>.fromOpaque(request.pointee.data!).release()
            request.deallocate()
            resolving = false
            failed("cannot resolve \(host): \(String(cString: uv_strerror(rc)))")
        }
    }

    private var resolving = false
    /// False after `close()`/`abort()`: a lookup that finishes later opens nothing.
    private var wanted = false

    private static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    private static func text(of address: UnsafeMutablePointer<sockaddr>) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        let rc: Int32
        if Int32(address.pointee.sa_family) == AF_INET6 {
            rc = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { uv_ip6_name($0, &name, name.count) }
        } else {
            rc = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { uv_ip4_name($0, &name, name.count) }
        }
        return rc == 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// An attempt that ended before a context existed (or after it was freed).
    private func failed(_ reason: String) {
        connectingSinceMs = nil
        onDown?(reason)
    }

    /// Connects hiredis to an address (never a name) and attaches it to the loop.
    private func open(_ address: String) {
        guard let ac = redisAsyncConnect(address, Int32(port)) else {
            failed("cannot allocate a Redis context")
            return
        }
        if ac.pointee.err != 0 {
            let reason = String(cString: dyn_redis_errstr(ac))
            redisAsyncFree(ac)
            failed(reason)
            return
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        ac.pointee.data = me
        guard dyn_redis_attach(ac, loop.uvLoop, me, { owner in
            guard let owner else { return }
            Unmanaged<RedisConnection>.fromOpaque(owner).takeUnretainedValue().contextFreed()
        }) == REDIS_OK else {
            redisAsyncFree(ac)
            failed("cannot attach Redis to the loop")
            return
        }
        context = ac
        redisAsyncSetConnectCallback(ac) { ac, status in
            guard let ac, let data = ac.pointee.data else { return }
            let connection = Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
            connection.connected(status == REDIS_OK, reason: String(cString: dyn_redis_errstr(ac)))
        }
        redisAsyncSetDisconnectCallback(ac) { ac, _ in
            guard let ac, let data = ac.pointee.data else { return }
            let connection = Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
            let reason = ac.pointee.err != 0 ? String(cString: dyn_redis_errstr(ac)) : "closed"
            connection.disconnected(reason: reason)
        }
    }

    /// hiredis freed the context (the adapter's cleanup): never touch the pointer again.
    private func contextFreed() {
        context = nil
        outstanding = 0
        waitingSinceMs = nil
    }

    private func connected(_ ok: Bool, reason: String) {
        guard ok else {
            // hiredis frees the context right after this callback.
            isUp = false
            failed(reason.isEmpty ? "connect failed" : reason)
            return
        }
        // TCP is up; Redis is up once it answers (AUTH, SELECT, then PING).
        var steps: [[String]] = []
        if let password { steps.append(["AUTH", password]) }
        if database != 0 { steps.append(["SELECT", String(database)]) }
        steps.append(["PING"])
        handshake(steps)
    }

    private func handshake(_ steps: [[String]]) {
        guard let step = steps.first else { return }
        send(step.map { Array($0.utf8) }) { [weak self] reply in
            guard let self, self.context != nil, self.connectingSinceMs != nil else { return }
            switch reply {
            case .error(let message)?:
                self.log("\(step[0]) refused: \(message)")
            case nil:
                return
            case _ where steps.count == 1:
                self.connectingSinceMs = nil
                self.isUp = true
                self.onUp?()
            default:
                self.handshake(Array(steps.dropFirst()))
            }
        }
    }

    /// A handshake refused (a wrong password, a database Redis does not have): the connection is dropped
    /// and tried again later, with the reason said once.
    private func log(_ reason: String) {
        handshakeProblem = reason
        abort(reconnecting: true)
    }

    private var handshakeProblem: String?

    private func disconnected(reason: String) {
        // hiredis frees the context when this callback returns.
        let wasUp = isUp
        isUp = false
        if wasUp {
            onDown?(reason)
        } else if connectingSinceMs != nil {
            failed(reason)
        }
    }

    /// Called every ~250 ms: drops a connection that connects too slowly or awaits a reply too long.
    func check() {
        let now = loop.nowMs
        if let since = connectingSinceMs, context != nil, now &- since > Self.connectTimeoutMs {
            abort(reconnecting: true, reason: "no answer within \(Self.connectTimeoutMs) ms of connecting")
        } else if isUp, let since = waitingSinceMs, now &- since > Self.stallMs {
            abort(reconnecting: true, reason: "no reply for \(now &- since) ms")
        }
    }

    /// Sends one command; `handler` gets its reply (nil: no connection, or lost before the reply came).
    func command(_ arguments: [String], handler: @escaping (RedisReply?) -> Void) {
        command(arguments.map { Array($0.utf8) }, handler: handler)
    }

    /// Sends one command of binary-safe arguments.
    func command(_ arguments: [[UInt8]], handler: @escaping (RedisReply?) -> Void) {
        guard isUp else {
            handler(nil)
            return
        }
        send(arguments, handler: handler)
    }

    private func send(_ arguments: [[UInt8]], handler: @escaping (RedisReply?) -> Void) {
        guard let ac = context else {
            handler(nil)
            return
        }
        let box = Unmanaged.passRetained(ReplyBox(handler: handler, owner: self, sentMs: loop.nowMs)).toOpaque()
        var lengths = arguments.map { $0.count }
        // hiredis copies the arguments into its output buffer before returning.
        let storage = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            if !bytes.isEmpty {
                bytes.withUnsafeBytes { UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            }
            return p
        }
        defer { storage.forEach { $0.deallocate() } }
        var argv = storage.map { UnsafePointer($0) as UnsafePointer<CChar>? }
        let rc = redisAsyncCommandArgv(ac, { _, reply, privdata in
            guard let privdata else { return }
            let box = Unmanaged<ReplyBox>.fromOpaque(privdata).takeRetainedValue()
            let value = reply.map { RedisReply($0.assumingMemoryBound(to: redisReply.self)) }
            if value != nil { box.owner?.answered(sentMs: box.sentMs) }
            box.handler(value)
        }, box, Int32(arguments.count), &argv, &lengths)
        if rc != REDIS_OK {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            handler(nil)
            return
        }
        if outstanding == 0 { waitingSinceMs = loop.nowMs }
        outstanding += 1
    }

    private func answered(sentMs: UInt64) {
        lastLatencyMs = loop.nowMs &- sentMs
        outstanding = max(0, outstanding - 1)
        waitingSinceMs = outstanding == 0 ? nil : loop.nowMs
    }

    /// Disconnects once the replies already asked for have arrived (at once when none is awaited or the
    /// connection is not up: hiredis would not call back for a connection that never came up).
    func close() {
        wanted = false
        guard let ac = context else { return }
        guard isUp, outstanding > 0 else {
            abort()
            return
        }
        redisAsyncDisconnect(ac)
    }

    /// Drops the connection now: every handler still waiting gets nil.
    func abort() { abort(reconnecting: false) }

    private func abort(reconnecting: Bool, reason: String? = nil) {
        if !reconnecting { wanted = false }
        let wasUp = isUp
        isUp = false
        connectingSinceMs = nil
        if let ac = context {
            // The adapter's cleanup clears `context` (contextFreed) while hiredis frees it.
            redisAsyncFree(ac)
            context = nil
        }
        outstanding = 0
        waitingSinceMs = nil
        let why = handshakeProblem ?? reason ?? "aborted"
        handshakeProblem = nil
        if wasUp || reconnecting { onDown?(why) }
    }

    /// Whether a connection (up, connecting, or its name being resolved) exists.
    var isOpen: Bool { context != nil || resolving }
}

/// A command's handler on its way through hiredis (`privdata`), retained until its callback runs.
private final class ReplyBox {
    let handler: (RedisReply?) -> Void
    weak var owner: RedisConnection?
    let sentMs: UInt64
    init(handler: @escaping (RedisReply?) -> Void, owner: RedisConnection, sentMs: UInt64) {
        self.handler = handler
        self.owner = owner
        self.sentMs = sentMs
    }
}
