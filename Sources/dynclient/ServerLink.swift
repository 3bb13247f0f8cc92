import NetProtocol
import NetLoop

/// The client's connection to the server, with framing, the `hello`, and reconnection.
///
/// Guarantees: every connection starts by sending `hello` (name, token, protocol 1) before anything else,
/// followed by a `subscribe` with id `"subscribe"` when one was asked for;
/// complete lines (up to 16 MiB, enough for a 1000-item snapshot many times over) reach `onLine` in order,
/// split however TCP delivered them; when the connection fails or ends, `onDown` is told once, and with
/// reconnecting on a new attempt follows after the `ReconnectBackoff` delay (reset by `markHealthy()`,
/// which the owner calls when a `welcome` arrives); `send` drops bytes while no connection is up (the caller
/// knows from `isConnected`); `shutdown()` closes everything and nothing is called back afterwards.
/// Redirects (docs/PROTOCOL.md, A fleet of servers): at most `maxRedirects` are followed in a row (a join
/// acknowledged ends the row), each keeping the room's token; a link that followed one goes back to the
/// address it started from when the owner's connection ends, so the fleet can send it to the room's new owner.
final class ServerLink {
    /// Why the link went down and what happens next.
    struct Down {
        var reason: String
        /// Milliseconds until the next attempt; nil when not reconnecting.
        var retryInMs: UInt64?
        var attempt: Int
    }

    let loop: EventLoop
    /// The server; a `redirect` changes it (`follow`).
    private(set) var address: SocketAddress
    /// The address the link started from, where it goes back when a server it was redirected to goes away.
    let origin: SocketAddress
    /// Redirects followed since the last acknowledged join.
    private(set) var redirectsInARow = 0
    static let maxRedirects = 3
    /// Whether `address` is one a redirect gave (not `origin`).
    private(set) var redirected = false
    /// The room token of the last `join` sent, for the redirect that may answer it.
    private var joinToken: (room: String, token: String)?
    private(set) var hello: [UInt8]
    private let name: String?
    private let subscribe: SubscriptionChange?
    private var token: String?
    /// The room every (re)connection's hello asks for, and the room token that makes it admin there.
    private(set) var room: String?
    private var roomToken: String?
    let reconnects: Bool
    var onUp: (() -> Void)?
    var onLine: ((UnsafeRawBufferPointer) -> Void)?
    var onDown: ((Down) -> Void)?

    private var connection: TCPConnection?
    private var framer = LineFramer(maxLineBytes: 16 << 20)
    private var backoff = ReconnectBackoff()
    private var retryTimer: UVTimer?
    private var stopped = false
    private(set) var isConnected = false

    init(loop: EventLoop, address: SocketAddress, name: String?, token: String?, reconnects: Bool,
         room: String? = nil, subscribe: SubscriptionChange? = nil) {
        self.loop = loop
        self.address = address
        self.origin = address
        self.reconnects = reconnects
        self.name = name
        self.subscribe = subscribe
        self.token = token
        self.room = room
        hello = Self.greeting(name: name, token: token, subscribe: subscribe, room: room, roomToken: nil)
    }

    private static func greeting(name: String?, token: String?, subscribe: SubscriptionChange?, room: String?,
                                 roomToken: String?) -> [UInt8] {
        var greeting = ClientMessage(.hello(name: name, token: token, protocolVersion: 1, room: room,
                                            roomToken: roomToken)).encoded()
        // A separate `subscribe` (not hello's object) so that its ack, with the resulting settings, shows.
        if let subscribe { greeting += ClientMessage(id: .string("subscribe"), .subscribe(subscribe)).encoded() }
        return greeting
    }

    /// A token the server accepted later (a `hello` typed in the client): reconnects carry it from now on.
    func setToken(_ token: String) {
        self.token = token
        hello = Self.greeting(name: name, token: token, subscribe: subscribe, room: room, roomToken: roomToken)
    }

    /// The room the server put this client in (a `join` ack): reconnects go back there, with its token when
    /// one was given (so the creator stays admin in it).
    func setRoom(_ room: String, token roomToken: String?) {
        redirectsInARow = 0
        changeRoom(room, token: roomToken)
    }

    private func changeRoom(_ room: String, token roomToken: String?) {
        if room != self.room { self.roomToken = nil }
        self.room = room
        if let roomToken { self.roomToken = roomToken }
        hello = Self.greeting(name: name, token: token, subscribe: subscribe, room: room, roomToken: self.roomToken)
    }

    func start() { connect() }

    /// A `join` is being sent with a room token: a redirect answering it carries the token along.
    func joining(_ room: String, token: String?) {
        joinToken = token.map { (room, $0) }
    }

    /// A `redirect` (docs/PROTOCOL.md, A fleet of servers): the room lives on another server of the fleet;
    /// the link leaves this one and connects there at once, its hello asking for the room (with the room's
    /// token, when it has one). False when the redirect's address is not one to connect to, or when
    /// `maxRedirects` were followed in a row already (a loop between servers that disagree).
    @discardableResult
    func follow(_ redirect: Redirect, roomToken: String? = nil) -> Bool {
        guard !stopped, redirectsInARow < Self.maxRedirects,
              let target = try? SocketAddress(host: redirect.host, port: redirect.port) else { return false }
        redirectsInARow += 1
        address = target
        redirected = true
        let carried = roomToken ?? joinToken.flatMap { $0.room == redirect.room ? $0.token : nil }
        changeRoom(redirect.room, token: carried)
        isConnected = false
        connection?.close()
        connection = nil
        // On the next turn of the loop: a redirect arrives while the old connection's lines are being read.
        if retryTimer == nil { retryTimer = try? UVTimer(loop: loop) }
        do {
            try retryTimer?.start(afterMs: 0) { [weak self] in self?.connect() }
        } catch {
            return false
        }
        return true
    }

    func markHealthy() { backoff.reset() }

    func send(_ bytes: [UInt8]) {
        guard isConnected, let connection else { return }
        connection.write(bytes)
    }

    /// Closes the link for good; `flushing` first sends what is queued (at most `flushTimeoutMs` later).
    func shutdown(flushing: Bool = false) {
        stopped = true
        isConnected = false
        retryTimer?.close()
        retryTimer = nil
        if flushing { connection?.closeAfterFlush(timeoutMs: Self.flushTimeoutMs) } else { connection?.close() }
        connection = nil
    }

    static let flushTimeoutMs: UInt64 = 1000

    private func connect() {
        guard !stopped else { return }
        let fresh: TCPConnection
        do {
            fresh = try TCPConnection(loop: loop)
        } catch {
            wentDown("cannot create a socket: \(error)")
            return
        }
        connection = fresh
        framer = LineFramer(maxLineBytes: 16 << 20)
        fresh.connect(to: address) { [weak self, weak fresh] error in
            guard let self, let fresh, fresh === self.connection, !self.stopped else { return }
            if let error {
                self.wentDown("cannot connect (\(error.name))")
                return
            }
            self.connected(fresh)
        }
    }

    private func connected(_ fresh: TCPConnection) {
        fresh.setNoDelay(true)
        do {
            try fresh.startReading(onData: { [weak self] bytes in
                guard let self else { return }
                self.framer.feed(bytes) { event in
                    if case let .line(line) = event, !self.stopped { self.onLine?(line) }
                }
            }, onEnd: { [weak self] error in
                self?.wentDown(error.map { "connection lost: \($0.name)" } ?? "server gone")
            })
        } catch {
            wentDown("cannot read from \(address): \(error.name)")
            return
        }
        isConnected = true
        fresh.write(hello)
        onUp?()
    }

    private func wentDown(_ reason: String) {
        guard !stopped else { return }
        isConnected = false
        connection?.close()
        connection = nil
        guard reconnects else {
            onDown?(Down(reason: reason, retryInMs: nil, attempt: backoff.attempt))
            return
        }
        // A server the fleet redirected to went away: back to where the link started, which knows (or will
        // know, once the lease lapses) the room's new owner and redirects there.
        if redirected {
            address = origin
            redirected = false
            redirectsInARow = 0
        }
        let delay = backoff.nextDelayMs()
        onDown?(Down(reason: reason, retryInMs: delay, attempt: backoff.attempt))
        guard !stopped else { return }
        if retryTimer == nil { retryTimer = try? UVTimer(loop: loop) }
        do {
            try retryTimer?.start(afterMs: delay) { [weak self] in self?.connect() }
        } catch {
            onDown?(Down(reason: "cannot schedule a reconnect: \(error.name)", retryInMs: nil, attempt: backoff.attempt))
        }
    }
}
