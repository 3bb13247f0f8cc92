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
    var queryRoom: String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        for pair in parts[1].split(separator: "&") where pair.hasPrefix("room=") {
            return String(pair.dropFirst(5))
        }
        return nil
    }
}
