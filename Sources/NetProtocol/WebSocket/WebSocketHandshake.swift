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
        guard request.headers(named: "Sec-WebSocket-Key") == 1,
              let key = request.header("Sec-WebSocket-Key")?.trimmingSpaces, decodedLength(ofBase64: key) == 16 else {
            return "Sec-WebSocket-Key must be one base64 value of 16 bytes (RFC 6455 4.1)"
        }
        return nil
    }

    /// The subprotocol this server speaks (docs/PROTOCOL.md): selected when the client offers it.
    public static let subprotocol = "dyn.v1"

    /// `subprotocol` when the client's `Sec-WebSocket-Protocol` headers offer it, else nil (then the
    /// answer names no subprotocol, as RFC 6455 4.2.2 asks when none of the offered ones is spoken).
    public static func selectedSubprotocol(_ request: HTTPRequestHead) -> String? {
        let offered = request.headers("Sec-WebSocket-Protocol").flatMap { $0.split(separator: ",") }
        return offered.contains { String($0).trimmingSpaces == subprotocol } ? subprotocol : nil
    }

    /// The number of bytes `text` decodes to as strict base64 (alphabet and `=` padding only, a multiple
    /// of four characters), decoded by nettle; nil when it is not such base64.
    static func decodedLength(ofBase64 text: String) -> Int? {
        let bytes = Array(text.utf8)
        let alphabet = { (c: UInt8) in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 43 || c == 47
        }
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        guard bytes.count % 4 == 0, bytes.count - body.count <= 2, body.allSatisfy(alphabet),
              bytes[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
        var context = base64_decode_ctx()
        nettle_base64_decode_init(&context)
        var out = [UInt8](repeating: 0, count: bytes.count / 4 * 3 + 3)
        var length = out.count
        let ok = bytes.withUnsafeBufferPointer { src in
            src.withMemoryRebound(to: CChar.self) { chars in
                out.withUnsafeMutableBufferPointer { nettle_base64_decode_update(&context, &length, $0.baseAddress, chars.count, chars.baseAddress) }
            }
        }
        guard ok == 1, nettle_base64_decode_final(&context) == 1 else { return nil }
        return length
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
