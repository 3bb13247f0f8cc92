import CNettle

/// The opening handshake of RFC 6455 (section 4): the `Sec-WebSocket-Accept` proof and the checks a server
/// makes on a client's upgrade request.
public enum WebSocketHandshake {
    /// The GUID every RFC 6455 server appends to the client's key before hashing.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// base64(SHA-1(key + GUID)), computed with nettle.
    public static func accept(key: String) -> String {
        let input = Array((key + guid).utf8)
        var context = sha1_ctx()
        nettle_sha1_init(&context)
        input.withUnsafeBufferPointer { nettle_sha1_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA1_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { nettle_sha1_digest(&context, $0.count, $0.baseAddress) }
        var encoded = [CChar](repeating: 0, count: (digest.count + 2) / 3 * 4)
        encoded.withUnsafeMutableBufferPointer { out in
            digest.withUnsafeBufferPointer { nettle_base64_encode_raw(out.baseAddress, $0.count, $0.baseAddress) }
        }
        return String(decoding: encoded.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why an upgrade request is not a WebSocket handshake this server accepts, or nil when it is one.
    public static func problem(with request: HTTPRequestHead) -> String? {
        guard request.method == "GET" else { return "a WebSocket handshake must be a GET" }
        guard request.versionMajor == 1, request.versionMinor >= 1 else { return "a WebSocket handshake needs HTTP/1.1" }
        guard request.header("Upgrade")?.lowercased().contains("websocket") == true else { return "Upgrade must be websocket" }
        guard request.header("Connection")?.lowercased().contains("upgrade") == true else { return "Connection must include upgrade" }
        guard request.header("Sec-WebSocket-Version")?.trimmingSpaces == "13" else { return "Sec-WebSocket-Version must be 13" }
        guard let key = request.header("Sec-WebSocket-Key")?.trimmingSpaces, key.utf8.count == 24, key.hasSuffix("==") else {
            return "Sec-WebSocket-Key must be 16 bytes in base64"
        }
        return nil
    }

    /// The client's `Sec-WebSocket-Key`, without surrounding spaces.
    public static func clientKey(_ request: HTTPRequestHead) -> String {
        (request.header("Sec-WebSocket-Key") ?? "").trimmingSpaces
    }

    /// A fresh random `Sec-WebSocket-Key` (16 random bytes in base64), for clients.
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var encoded = [CChar](repeating: 0, count: 24)
        encoded.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { nettle_base64_encode_raw(out.baseAddress, $0.count, $0.baseAddress) }
        }
        return String(decoding: encoded.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
