import DynRoom
import NetProtocol

/// The rooms' HTTP side (docs/PROTOCOL.md, Rooms): `GET /rooms` and the `room` of `GET /ws?room=NAME`.
extension Server {
    /// `GET /rooms`: `{"rooms":[...]}`, the same list as the `rooms` command's ack.
    func roomsJSON() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.value(.object([("rooms", .array(roomSummaries().map(\.json)))]))
        w.newline()
        return w.bytes
    }
}

extension HTTPRequestHead {
    /// The `room` parameter of the query string (`/ws?room=lab`), nil when there is none.
    var queryRoom: String? { queryParameter("room") }

    /// A parameter of the query string, as sent (nil when there is none).
    func queryParameter(_ name: String) -> String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        for pair in parts[1].split(separator: "&") where pair.hasPrefix(name + "=") {
            return String(pair.dropFirst(name.count + 1))
        }
        return nil
    }

    /// The token of an `Authorization: Bearer TOKEN` header.
    var bearerToken: String? {
        guard let value = header("Authorization"), value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7).drop { $0 == " " })
    }
}
