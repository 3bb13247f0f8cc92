import Foundation
import NetProtocol
import Testing

/// What a `join` sends back, in the order docs/PROTOCOL.md (Rooms) promises: the room's `scene`, its state
/// (a snapshot or a keyframe frame), then the ack (or an error instead of all three).
struct JoinAnswer {
    var scene: SceneInfo?
    var state: ServerMessage?
    var ack: [(String, JSONValue)]?
    var error: ProtocolError?
    /// Every message type read, in order, up to the answer.
    var order: [String] = []

    var room: String? { ack?.first { $0.0 == "room" }?.1.string }
    var created: Bool? { if case .bool(let b)? = ack?.first(where: { $0.0 == "created" })?.1 { b } else { nil } }
    var roomToken: String? { ack?.first { $0.0 == "room_token" }?.1.string }
    var admin: Bool? { if case .bool(let b)? = ack?.first(where: { $0.0 == "admin" })?.1 { b } else { nil } }
}

/// The `rooms` list read back from an ack or from `GET /rooms`.
struct RoomEntry: Equatable {
    var name: String
    var clients: Int
    var bodies: Int
    var scene: String
    var paused: Bool
    var held: Bool
    var loaded: Bool

    init?(_ value: JSONValue) {
        guard case .object(let members) = value else { return nil }
        func field(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }
        guard let name = field("name")?.string, let clients = field("clients")?.number, let bodies = field("bodies")?.number,
              let scene = field("scene")?.string, case .bool(let paused)? = field("paused"),
              case .bool(let held)? = field("held"), case .bool(let loaded)? = field("loaded") else { return nil }
        (self.name, self.clients, self.bodies, self.scene) = (name, Int(clients), Int(bodies), scene)
        (self.paused, self.held, self.loaded) = (paused, held, loaded)
    }

    static func list(_ value: JSONValue?) -> [RoomEntry]? {
        guard case .array(let items)? = value else { return nil }
        let entries = items.compactMap(RoomEntry.init)
        return entries.count == items.count ? entries : nil
    }
}

extension LineClient {
    /// Sends `join` (raw members after `room`) with `id` and reads scene, state and ack (or the error).
    func joinRoom(_ room: String, _ extra: String = "", id: Int, timeout: Double = 10) throws -> JoinAnswer {
        try send(#"{"type":"join","id":\#(id),"room":"\#(room)"\#(extra.isEmpty ? "" : "," + extra)}"#)
        return readJoin(id: id, timeout: timeout)
    }

    /// Reads a join's answer (scene, state, ack with `id`), skipping older snapshots before the scene.
    func readJoin(id: Int, timeout: Double = 10) -> JoinAnswer {
        var answer = JoinAnswer()
        let deadline = Date().addingTimeInterval(timeout)
        let echo = MessageID.number(String(id))
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            switch message {
            case .scene(let scene):
                answer.scene = scene
                answer.state = nil
                answer.order.append("scene")
            case .snapshot, .frame:
                if answer.scene != nil, answer.state == nil {
                    answer.state = message
                    answer.order.append("state")
                }
            case .ack(let got, let fields) where got == echo:
                answer.ack = fields
                answer.order.append("ack")
                return answer
            case .error(let error) where error.id == echo:
                answer.error = error
                answer.order.append("error")
                return answer
            default:
                break
            }
        }
        return answer
    }

    /// The `rooms` ack's list.
    func roomList(id: Int) throws -> [RoomEntry]? {
        RoomEntry.list(try ack(#"{"type":"rooms","id":\#(id)}"#, id: id)?.first { $0.0 == "rooms" }?.1)
    }

    /// Every message read until the `pong` answering a ping with `id` (what arrived in between).
    func messagesUntilPong(id: Int, timeout: Double = 10) throws -> [ServerMessage] {
        try send(#"{"type":"ping","id":\#(id)}"#)
        var seen: [ServerMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if case .pong(_, _, let echo) = message, echo == .number(String(id)) { return seen }
            seen.append(message)
        }
        throw EndToEndError("no pong for ping \(id)")
    }
}

/// `GET /rooms` read back as entries.
func httpRooms(port: UInt16) throws -> [RoomEntry]? {
    guard let reply = try HTTPReply.get(port: port, "/rooms"), reply.status == 200 else { return nil }
    guard let value = try? JSONParser.parse(Array(reply.body.utf8), maxDepth: 8), case .object(let members) = value else {
        return nil
    }
    return RoomEntry.list(members.first { $0.0 == "rooms" }?.1)
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes (a deadline, not a sleep).
func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
