import NetProtocol

/// The HTTP/1.1 listener (`--http-port`) on the server's loop: `GET /` the browser client, `GET /ws` the
/// WebSocket upgrade, `GET /metrics`, `GET /healthz`; anything else 404.
///
/// Guarantees: every request is parsed by http-parser (`HTTPRequestParser`); one request per connection,
/// answered with `Connection: close` (a WebSocket upgrade hands the connection to the session logic); a
/// malformed request gets 400, an oversized head 431, an oversized body 413, and is closed; a request not
/// complete within `requestTimeoutMs` is closed; at most `maxPending` connections wait in HTTP at once.
final class HTTPFrontEnd {
    unowned let server: Server
    private var listener: TCPListener?
    private var pending: [ObjectIdentifier: PendingRequest] = [:]
    /// Frames server messages for every WebSocket, once per broadcast buffer.
    private let framer = WebSocketTextFramer()
    static let requestTimeoutMs: UInt64 = 10_000
    static let maxPending = 1024

    /// One connection still speaking HTTP.
    private final class PendingRequest {
        let tcp: TCPConnection
        let parser = HTTPRequestParser()
        let openedMs: UInt64
        init(tcp: TCPConnection) {
            self.tcp = tcp
            openedMs = tcp.loop.nowMs
        }
    }

    init(server: Server) {
        self.server = server
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
        for request in pending.values { request.tcp.close() }
        pending.removeAll()
    }

    /// Closes connections whose request has not completed in time (a slowloris costs one timer pass).
    func closeStalledRequests() {
        let now = server.loop.nowMs
        for (key, request) in pending where now &- request.openedMs > Self.requestTimeoutMs {
            pending[key] = nil
            request.tcp.close()
        }
    }

    private func accept(_ tcp: TCPConnection) {
        guard !server.shuttingDown, pending.count < Self.maxPending else {
            tcp.close()
            return
        }
        let request = PendingRequest(tcp: tcp)
        let key = ObjectIdentifier(request)
        pending[key] = request
        // The closures hold the request strongly (tcp -> closure -> request -> tcp): the cycle ends when the
        // handle closes and drops its callbacks, so the request lives exactly as long as its connection reads.
        do {
            try tcp.startReading(onData: { [unowned self] bytes in
                self.received(bytes, for: request)
            }, onEnd: { [unowned self] _ in
                self.pending[key] = nil
                tcp.close()
            })
        } catch {
            pending[key] = nil
            tcp.close()
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
            response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(WebPage.html.utf8))
        case "/healthz":
            // 503 with the reason while the loop is late or, in a fleet, Redis is away (docs/PROTOCOL.md, A fleet).
            response = server.healthProblem.map { HTTPResponse(status: 503, text: $0 + "\n") } ?? HTTPResponse(status: 200, text: "ok\n")
        case "/metrics":
            response = HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                                    body: Array(server.metricsText().utf8))
        case "/rooms":
            response = HTTPResponse(status: 200, contentType: "application/json", body: server.roomsJSON())
        case _ where path.hasPrefix("/r/") && server.cluster?.ownerPage(of: String(path.dropFirst(3))) != nil:
            // Another server of the fleet owns the room: its page (docs/PROTOCOL.md, A fleet of servers).
            var redirect = HTTPResponse(status: 307, text: "room \(path.dropFirst(3)) is on another server\n")
            redirect.headers.append(("Location", server.cluster?.ownerPage(of: String(path.dropFirst(3))) ?? "/"))
            response = redirect
        case _ where path.hasPrefix("/r/") && RoomName.isValid(path.dropFirst(3)):
            // The page reads its room from its own URL path and joins it over /ws?room=NAME.
            response = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(WebPage.html.utf8))
        default:
            response = HTTPResponse(status: 404, text: "not found: try / (the browser client), /ws, /metrics or /healthz\n")
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
        let accept = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.accept(key: key))\r\n\r\n"
        pending[ObjectIdentifier(request)] = nil
        let tcp = request.tcp
        tcp.stopReading()
        tcp.write(Array(accept.utf8))
        server.acceptWebSocket(tcp, leftover: leftover, framer: framer, room: head.queryRoom)
    }

    private func respond(_ request: PendingRequest, _ response: HTTPResponse, headOnly: Bool = false) {
        let key = ObjectIdentifier(request)
        request.tcp.write(response.encoded(headOnly: headOnly))
        // Out of `pending` once the answer is out (or after 5 s): the timeout no longer applies.
        request.tcp.closeAfterFlush(timeoutMs: 5000) { [weak self] in self?.pending[key] = nil }
    }
}
