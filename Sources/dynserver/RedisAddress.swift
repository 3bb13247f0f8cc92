/// `--cluster redis://HOST:PORT[/DB]`, parsed (docs/DEPLOY.md).
///
/// Guarantees: a parsed address has a non-empty host, a port 1...65535 (6379 when omitted) and a database
/// 0...15 (0 when omitted); anything else is refused with the reason.
struct RedisAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int
    var database: Int

    init(parsing text: String) throws(ServerStartError) {
        guard text.hasPrefix("redis://") else { throw ServerStartError("--cluster wants redis://HOST:PORT[/DB], not \(text)") }
        var rest = Substring(text.dropFirst("redis://".count))
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
                throw ServerStartError("--cluster: the port is 1...65535 in \(text)")
            }
            port = p
            host = String(rest[..<colon])
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ServerStartError("--cluster: no host in \(text)") }
        self.host = host
        self.port = port
        self.database = database
    }

    var description: String { "redis://\(host):\(port)/\(database)" }
}
