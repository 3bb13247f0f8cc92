import CWslay
import Foundation
import NetProtocol
import Testing

/// A blocking WebSocket client (RFC 6455) for tests, framed by the same wslay binding as the server
/// (`WebSocketEndpoint` in client mode), over a `BlockingSocket`.
///
/// Guarantees: `init` returns after a `101 Switching Protocols` whose `Sec-WebSocket-Accept` matches the
/// key sent (else throws, with the status line); every wait ends at its timeout; text messages decode as
/// server messages (`next`), and control frames are kept as they are (`nextFrame`), so a test can see the
/// server's pongs and Close frame; `sendRaw` sends bytes as given, for frames a broken client would send.
final class WebSocketClient: PingAnswering {
    let socket: BlockingSocket
    let endpoint: WebSocketEndpoint
    private var queue: [WebSocketEndpoint.Message] = []
    /// The HTTP response head the server sent to the handshake.
    private(set) var handshakeResponse = ""

    /// Connects to `127.0.0.1:port` and upgrades `path`; `extraRequestBytes` follow the handshake at once;
    /// `receiveBufferBytes` shrinks the kernel receive buffer (a client slow to read).
    init(port: UInt16, path: String = "/ws", maxMessageBytes: Int = 16 << 20, extraRequestBytes: [UInt8] = [],
         receiveBufferBytes: Int32? = nil) throws {
        socket = try BlockingSocket(port: port, receiveBufferBytes: receiveBufferBytes)
        endpoint = WebSocketEndpoint(role: .client, maxMessageBytes: maxMessageBytes)
        let key = WebSocketHandshake.randomKey()
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try socket.send(Array(request.utf8) + extraRequestBytes)
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let end = Self.headEnd(received) {
                handshakeResponse = String(decoding: received[..<end], as: UTF8.self)
                guard handshakeResponse.hasPrefix("HTTP/1.1 101"),
                      handshakeResponse.contains("Sec-WebSocket-Accept: \(WebSocketHandshake.accept(key: key))") else {
                    throw EndToEndError("handshake refused: \(handshakeResponse)")
                }
                let rest = Array(received[(end + 4)...])
                if !rest.isEmpty { absorb(rest) }
                return
            }
            let bytes = socket.receive(timeout: max(0, deadline.timeIntervalSinceNow))
            if socket.isClosedByPeer { break }
            received += bytes
        }
        throw EndToEndError("no handshake answer (got \(String(decoding: received, as: UTF8.self).prefix(200)))")
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func absorb(_ bytes: [UInt8]) {
        queue += bytes.withUnsafeBytes { endpoint.receive($0) }
        let answer = endpoint.takeOutput()
        if !answer.isEmpty { try? socket.send(answer) }
    }

    var isClosedByPeer: Bool { socket.isClosedByPeer }

    // MARK: sending

    /// One text message (one frame).
    func send(_ text: String) throws {
        let frame = Array(text.utf8).withUnsafeBytes { endpoint.text($0) }
        try socket.send(frame)
    }

    func send(_ message: ClientMessage) throws {
        var bytes = message.encoded()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        try send(String(decoding: bytes, as: UTF8.self))
    }

    func sendRaw(_ bytes: [UInt8]) throws { try socket.send(bytes) }

    /// A masked frame of this client with the given opcode (ping, binary, ...).
    func sendFrame(opcode: wslay_opcode, _ payload: [UInt8]) throws {
        try socket.send(endpoint.frame(opcode: UInt8(opcode.rawValue), payload))
    }

    // MARK: receiving

    /// The next message or control frame, or nil after `timeout` seconds or once the server closed.
    func nextFrame(timeout: Double = 5) -> WebSocketEndpoint.Message? {
        let deadline = Date().addingTimeInterval(timeout)
        while queue.isEmpty {
            if socket.isClosedByPeer || Date() >= deadline { return nil }
            let bytes = socket.receive(timeout: max(0, deadline.timeIntervalSinceNow))
            if !bytes.isEmpty { absorb(bytes) }
        }
        return queue.removeFirst()
    }

    /// The next text message decoded as a server message; other frames are skipped.
    func next(timeout: Double = 5) -> ServerMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while let frame = nextFrame(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard case .text(let bytes) = frame else { continue }
            if let message = ServerMessage.decode(bytes) { return message }
            Issue.record("undecodable server message: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        }
        return nil
    }

    /// Skips messages until one satisfies `predicate`.
    func waitFor(timeout: Double = 5, _ predicate: (ServerMessage) -> Bool) -> ServerMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if predicate(message) { return message }
        }
        return nil
    }

    /// `welcome`, `scene` and the first `snapshot`, in that order.
    func join(timeout: Double = 10) -> (welcome: Welcome?, scene: SceneInfo?, snapshot: Snapshot?) {
        guard case let .welcome(welcome)? = next(timeout: timeout) else { return (nil, nil, nil) }
        guard case let .scene(scene)? = next(timeout: timeout) else { return (welcome, nil, nil) }
        guard case let .snapshot(snapshot)? = next(timeout: timeout) else { return (welcome, scene, nil) }
        return (welcome, scene, snapshot)
    }

    /// Sends a raw JSON message and returns the `ack`, `error` or `pong` echoing `id`.
    func request(_ text: String, id: MessageID, timeout: Double = 10) throws -> ServerMessage? {
        try send(text)
        return waitFor(timeout: timeout) { message in
            switch message {
            case let .ack(echo, _): return echo == id
            case let .error(error): return error.id == id
            case let .pong(_, _, echo): return echo == id
            default: return false
            }
        }
    }

    /// The next `error` message (any id).
    func nextError(timeout: Double = 5) -> ProtocolError? {
        guard case let .error(error)? = waitFor(timeout: timeout, { if case .error = $0 { true } else { false } }) else { return nil }
        return error
    }

    /// The server's Close frame status, skipping everything before it; nil if none came in time.
    func closeStatus(timeout: Double = 5) -> UInt16? {
        let deadline = Date().addingTimeInterval(timeout)
        while let frame = nextFrame(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if case .close(let code) = frame { return code }
        }
        return nil
    }
}

extension WebSocketClient {
    func sendMessage(_ text: String) throws { try send(text) }

    func awaitMessage(containing needle: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while let frame = nextFrame(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if case .text(let bytes) = frame, String(decoding: bytes, as: UTF8.self).contains(needle) { return true }
        }
        return false
    }
}
