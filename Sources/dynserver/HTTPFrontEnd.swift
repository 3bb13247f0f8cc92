import DynRoom
import NetProtocol
import NetLoop

/// The HTTP/1.1 listener (`--http-port`) on the server's loop: `GET /` the browser client, `GET /ws` the
/// WebSocket upgrade, `GET /metrics`, `GET /healthz`; anything else 404.
///
/// Guarantees: every request is parsed by http-parser (`HTTPRequestParser`, with RFC 9112's rules on top);
/// one request per connection, answered with `Connection: close` (a WebSocket upgrade hands the connection
/// to the session logic); a malformed request gets 400, an oversized head 431, an oversized body 413, an
/// unknown method 501, an HTTP version other than 1.x 505. Every answer reaches the client whole: reading
/// stops, the answer is sent, the write side is shut down, and the connection closes only after the peer's
/// remaining bytes are read (`closeGracefully`), so no reset overtakes it. Connections still sending their
/// request are held by an `HTTPPendingPool` (a deadline of `requestDeadlineMs`, a share per peer, the
/// oldest evicted when full, docs/PROTOCOL.md), so slow clients cannot lock the port.
final class HTTPFrontEnd {
    unowned let server: Server
    private var listener: TCPListener?
    private var pending: HTTPPendingPool<PendingRequest>
    /// Answered connections waiting for their peer's FIN (closed at once on shutdown).
    private var lingering: [ObjectIdentifier: TCPConnection] = [:]
    /// Frames server messages for every WebSocket, once per broadcast buffer.
    private let framer = WebSocketTextFramer()
    private var evictionLog = RateLimitedNotice(intervalMs: 10_000)
    /// A request must be complete this long after its connection was accepted.
    static let requestDeadlineMs: UInt64 = 5_000
    /// Connections still sending their request, all peers together.
    static let maxPending = 1024
    /// Of those, from one IP address.
    static let maxPendingPerPeer = 128
    /// How long an answered connection is read (and drained) while waiting for the peer's FIN.
    static let lingerMs: UInt64 = 2_000

    /// The number of connections still sending their request (`dyn_http_pending`).
    var pendingCount: Int { pending.count }

    /// One connection still speaking HTTP.
    private final class PendingRequest {
        let tcp: TCPConnection
        let parser = HTTPRequestParser()
        let peer: String
        init(tcp: TCPConnection) {
            self.tcp = tcp
            peer = tcp.peer?.host ?? "?"
        }
    }

    init(server: Server) {
        self.server = server
        pending = HTTPPendingPool(limit: Self.maxPending, perPeerLimit: Self.maxPendingPerPeer,
                                  deadlineMs: Self.requestDeadlineMs)
    }

    /// Binds and listens; returns the address actually bound.
    func start(host: String, port: Int) throws -> SocketAddress {
        let listener = try TCPListener(loop: server.loop, host: host, port: port) { [unowned self] in self.accept($0) }
        listener.onAcceptError = { [unowned self] error in self.server.log.warning("http accept failed: \(error)") }
        self.listener = listener
        return listener.address
    }

    /// Stops listening and closes every connection still in HTTP (shutdown).
    func close() {
        listener?.close()
        listener = nil
        for request in pending.entries {
            pending.remove(request)
            request.tcp.close()
        }
        for tcp in lingering.values { tcp.close() }
        lingering.removeAll()
    }

    /// Closes connections whose request has not completed in time (a slowloris costs one timer pass).
    func closeStalledRequests() {
        for request in pending.expired(nowMs: server.loop.nowMs) {
            pending.remove(request)
            server.metrics.httpRequestTimedOut()
            request.tcp.close()
        }
        if let late = evictionLog.flush(nowMs: server.loop.nowMs) {
            server.log.notice("http: \(late) more oldest incomplete requests evicted to admit new connections")
        }
    }

    private func accept(_ tcp: TCPConnection) {
        guard !server.shuttingDown else {
            tcp.close()
            return
        }
        let request = PendingRequest(tcp: tcp)
        let evicted = pending.admit(request, peer: request.peer, nowMs: server.loop.nowMs)
        for victim in evicted { victim.tcp.close() }
        if !evicted.isEmpty { noteEvictions(evicted, forPeer: request.peer) }
        // The closures hold the request strongly (tcp -> closure -> request -> tcp): the cycle ends when the
        // handle closes and drops its callbacks, so the request lives exactly as long as its connection reads.
        do {
            try tcp.startReading(onData: { [unowned self] bytes in
                self.received(bytes, for: request)
            }, onEnd: { [unowned self] _ in
                self.pending.remove(request)
                tcp.close()
            })
        } catch {
            pending.remove(request)
            tcp.close()
        }
    }

    private func noteEvictions(_ evicted: [PendingRequest], forPeer peer: String) {
        server.metrics.httpEvicted(evicted.count)
        let summary = evictionLog.note(evicted.count, nowMs: server.loop.nowMs)
        if let summary {
            server.log.notice("http: \(summary) oldest incomplete requests evicted to admit new connections (pending pool \(pending.count)/\(Self.maxPending), \(Self.maxPendingPerPeer) per peer; latest newcomer from \(peer))")
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer, for request: PendingRequest) {
        switch request.parser.feed(bytes) {
        case .needMore:
            return
        case .failed(let status, let reason):
            server.log.info("http \(request.tcp.peer?.description ?? "?"): \(status) \(reason)")
            respond(request, HTTPResponse(status: status, text: reason + "\n"))
        case .request(let head, let consumed):
            route(head, request, leftover: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
        }
    }

    private func route(_ head: HTTPRequestHead, _ request: PendingRequest, leftover: UnsafeRawBufferPointer) {
        // Complete: no longer pending (a scrape of /metrics does not count itself in dyn_http_pending).
        pending.remove(request)
        let path = head.path
        if path == "/ws" {
            if let room = head.queryRoom, !RoomName.isValid(room) {
                respond(request, HTTPResponse(status: 400, text: "bad room name in /ws?room=: \(room)\n"))
                return
            }
            upgrade(head, request, leftover: leftover)
            return
        }
        guard head.method == "GET" || head.method == "HEAD" else {
            var response = HTTPResponse(status: 405, text: "only GET is served here\n")
            response.headers.append(("Allow", "GET, HEAD"))
            respond(request, response, headOnly: false)
            return
        }
        let response: HTTPResponse
        switch path {
        case "/", "/index.html":
            response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: WebPage.index)
        case _ where path.hasPrefix("/web/") && WebPage.file(named: path.dropFirst(5)) != nil:
            // The page's other files, byte for byte as they are in web/ (docs/PROTOCOL.md, HTTP).
            let file = WebPage.file(named: path.dropFirst(5))
            response = HTTPResponse(status: 200, contentType: file?.contentType ?? "", body: file?.bytes ?? [])
        case "/scenes.json":
            response = HTTPResponse(status: 200, contentType: "application/json", body: WebPage.sceneNamesJSON)
        case "/favicon.ico":
            response = HTTPResponse(status: 200, contentType: "image/x-icon", body: Favicon.bytes)
        case "/healthz":
            // Liveness: 503 with the reason while the loop is late (docs/DEPLOY.md, Probes).
            response = server.healthProblem.map { HTTPResponse(status: 503, text: $0 + "\n") } ?? HTTPResponse(status: 200, text: "ok\n")
        case "/readyz":
            // Readiness: 503 with the reason while draining or, in a fleet, Redis is away (docs/DEPLOY.md, Probes).
            response = server.readinessProblem.map { HTTPResponse(status: 503, text: $0 + "\n") } ?? HTTPResponse(status: 200, text: "ready\n")
        case "/metrics":
            // Counted before rendering, so a scrape sees its own 200.
            server.metrics.httpResponded(status: 200)
            respond(request, HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                                          body: Array(server.metricsText().utf8)),
                    headOnly: head.method == "HEAD", counted: true)
            return
        case "/rooms" where server.config.token != nil && !TokenComparison.matches(head.bearerToken ?? head.queryParameter("token"), server.config.token):
            // The list needs the token the `rooms` command needs (docs/PROTOCOL.md, Security).
            var refused = HTTPResponse(status: 401, text: "GET /rooms needs the server's token: ?token=TOKEN or Authorization: Bearer TOKEN\n")
            refused.headers.append(("WWW-Authenticate", "Bearer"))
            response = refused
        case "/rooms":
            response = HTTPResponse(status: 200, contentType: "application/json", body: server.roomsJSON())
        case _ where path.hasPrefix("/r/") && server.cluster?.ownerPage(of: String(path.dropFirst(3))) != nil:
            // Another server of the fleet owns the room: its page (docs/PROTOCOL.md, A fleet of servers).
            var redirect = HTTPResponse(status: 307, text: "room \(path.dropFirst(3)) is on another server\n")
            redirect.headers.append(("Location", server.cluster?.ownerPage(of: String(path.dropFirst(3))) ?? "/"))
            response = redirect
            server.metrics.fleetRedirected("http")
        case _ where path.hasPrefix("/r/") && RoomName.isValid(path.dropFirst(3)):
            // The page reads its room from its own URL path and joins it over /ws?room=NAME.
            response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: WebPage.index)
        default:
            response = HTTPResponse(status: 404, text: "not found: try / (the browser client), /ws, /metrics, /healthz or /readyz\n")
        }
        respond(request, response, headOnly: head.method == "HEAD")
    }

    private func upgrade(_ head: HTTPRequestHead, _ request: PendingRequest, leftover: UnsafeRawBufferPointer) {
        if !head.upgrade {
            var response = HTTPResponse(status: 426, text: "/ws is a WebSocket: send an Upgrade: websocket handshake\n")
            response.headers.append(("Upgrade", "websocket"))
            respond(request, response)
            return
        }
        if let problem = WebSocketHandshake.problem(with: head) {
            respond(request, HTTPResponse(status: 400, text: problem + "\n"))
            return
        }
        let key = WebSocketHandshake.clientKey(head)
        var accept = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.accept(key: key))\r\n"
        if let subprotocol = WebSocketHandshake.selectedSubprotocol(head) {
            accept += "Sec-WebSocket-Protocol: \(subprotocol)\r\n"
        }
        accept += "\r\n"
        pending.remove(request)
        server.metrics.httpResponded(status: 101)
        let tcp = request.tcp
        tcp.stopReading()
        tcp.write(Array(accept.utf8))
        server.acceptWebSocket(tcp, leftover: leftover, framer: framer, room: head.queryRoom)
    }

    /// Sends the answer and ends the connection gracefully (the answer is read whole before the FIN).
    private func respond(_ request: PendingRequest, _ response: HTTPResponse, headOnly: Bool = false, counted: Bool = false) {
        pending.remove(request)
        if !counted { server.metrics.httpResponded(status: response.status) }
        let tcp = request.tcp
        let key = ObjectIdentifier(tcp)
        tcp.write(response.encoded(headOnly: headOnly))
        lingering[key] = tcp
        tcp.closeGracefully(lingerMs: Self.lingerMs) { [weak self] in self?.lingering[key] = nil }
    }
}
