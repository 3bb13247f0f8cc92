import NetProtocol

/// What the message bar says after `:join` and `:rooms` (docs/PROTOCOL.md, Rooms).
enum RoomsText {
    /// `joined lab (created; room token 3f…)` from a `join` ack.
    static func joined(_ fields: [(String, JSONValue)]) -> String {
        let room = fields.first { $0.0 == "room" }?.1.string ?? "?"
        let created = fields.first { $0.0 == "created" }?.1 == .bool(true)
        let token = fields.first { $0.0 == "room_token" }?.1.string
        return "joined \(room)" + (created ? " (created" + (token.map { "; room token \($0)" } ?? "") + ")" : "")
    }

    /// `rooms: lab 2 clients 12 items, main 1 client 16 items` from a `rooms` ack.
    static func list(_ fields: [(String, JSONValue)]) -> String {
        guard case let .array(rooms)? = fields.first(where: { $0.0 == "rooms" })?.1 else { return "rooms: ?" }
        let entries = rooms.compactMap { room -> String? in
            guard case let .object(members) = room else { return nil }
            func value(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }
            let clients = Int(value("clients")?.number ?? 0)
            let loaded = value("loaded") != .bool(false)
            return "\(value("name")?.string ?? "?") \(clients) client\(clients == 1 ? "" : "s")"
                + " \(Int(value("bodies")?.number ?? 0)) items" + (loaded ? "" : " (saved)")
        }
        return "rooms: " + entries.joined(separator: ", ")
    }
}
