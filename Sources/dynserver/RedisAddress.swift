/// `--cluster redis://[:PASSWORD@]HOST:PORT[/DB]`, parsed (docs/DEPLOY.md).
///
/// Guarantees: a parsed address has a non-empty host, a port 1...65535 (6379 when omitted), a database
/// 0...15 (0 when omitted) and the password given before `@` (percent-decoded; a user name before the
/// colon is accepted and ignored, as Redis before 6 has none); anything else is refused with the reason.
/// `description` never shows the password.
struct RedisAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int
    var database: Int
    var password: String?

    init(parsing text: String) throws(ServerStartError) {
        guard text.hasPrefix("redis://") else { throw ServerStartError("--cluster wants redis://[:PASSWORD@]HOST:PORT[/DB], not \(Self.redacted(text))") }
        var rest = Substring(text.dropFirst("redis://".count))
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = credentials.firstIndex(of: ":") else {
                throw ServerStartError("--cluster: the credentials are :PASSWORD@ (a colon before the password)")
            }
            guard let decoded = Self.percentDecoded(credentials[credentials.index(after: colon)...]), !decoded.isEmpty else {
                throw ServerStartError("--cluster: the password after : is empty or badly percent-encoded")
            }
            password = decoded
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            guard db.isEmpty || Int(db).map({ (0...15).contains($0) }) == true else {
                throw ServerStartError("--cluster: the database after / is 0...15, not \(db)")
            }
            database = Int(db) ?? 0
            rest = rest[..<slash]
        }
        var host = String(rest)
        var port = 6379
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else {
                throw ServerStartError("--cluster: the port is 1...65535 in \(Self.redacted(text))")
            }
            port = p
            host = String(rest[..<colon])
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ServerStartError("--cluster: no host in \(Self.redacted(text))") }
        self.host = host
        self.port = port
        self.database = database
        self.password = password
    }

    var description: String { "redis://\(password == nil ? "" : ":***@")\(host):\(port)/\(database)" }

    /// The URL with its password hidden, for error messages and logs.
    private static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), text.hasPrefix("redis://") else { return text }
        return "redis://:***@" + text[text.index(after: at)...]
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i != utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h != utf8.endIndex, utf8.index(after: h) != utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[h], utf8[utf8.index(after: h)]], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                i = utf8.index(h, offsetBy: 2)
            } else {
                bytes.append(byte)
                i = utf8.index(after: i)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
