import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A server of the fleet: `--cluster` on `redis`, advertised as 127.0.0.1 (its bound ports).
func fleetServer(_ redis: RedisServerProcess, _ extra: [String] = []) throws -> ServerProcess {
    try fleetServer(url: redis.url, extra)
}

/// A server of the fleet whose Redis is at `url` (a proxy in front of the real one, a URL with a password).
func fleetServer(url: String, _ extra: [String] = []) throws -> ServerProcess {
    // A short drain (--drain-s 1): SIGTERM with clients connected ends within a second and a half.
    let server = try ServerProcess(["--cluster", url, "--advertise", "127.0.0.1", "--scene", "empty",
                                    "--state-interval", "0.5", "--drain-s", "1"] + extra)
    let httpPort = try #require(server.httpPort)
    // Connected to Redis: /readyz says 200 once the directory answers.
    guard waitUntil(timeout: 10, { (try? HTTPReply.get(port: httpPort, "/readyz"))??.status == 200 }) else {
        throw EndToEndError("server never became healthy in the fleet:\n\(server.stderr)")
    }
    return server
}

/// `GET /rooms` with each room's owner (`HOST:PORT`, nil for a room nobody holds).
func fleetRooms(port: UInt16) throws -> [String: String?]? {
    guard let reply = try HTTPReply.get(port: port, "/rooms"), reply.status == 200,
          let value = try? JSONParser.parse(Array(reply.body.utf8), maxDepth: 8), case .object(let members) = value,
          case .array(let rooms)? = members.first(where: { $0.0 == "rooms" })?.1 else { return nil }
    var owners: [String: String?] = [:]
    for case .object(let room) in rooms {
        guard let name = room.first(where: { $0.0 == "name" })?.1.string else { continue }
        owners[name] = room.first { $0.0 == "owner" }?.1.string
    }
    return owners
}

extension LineClient {
    /// Sends `join` and returns the first answer to it: the ack (after scene and state), a redirect or an error.
    func joinAnswer(_ room: String, id: Int, timeout: Double = 10) throws -> ServerMessage? {
        try send(#"{"type":"join","id":\#(id),"room":"\#(room)"}"#)
        return joinReply(id: id, timeout: timeout)
    }

    /// The answer to a join already sent with `id`: its ack, a redirect or an error.
    func joinReply(id: Int, timeout: Double = 10) -> ServerMessage? {
        let echo = MessageID.number(String(id))
        let deadline = Date().addingTimeInterval(timeout)
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            switch message {
            case .ack(let got, _) where got == echo: return message
            case .redirect(let redirect) where redirect.id == echo: return message
            case .error(let error) where error.id == echo: return message
            default: continue
            }
        }
        return nil
    }
}

extension ServerMessage {
    var redirect: Redirect? { if case .redirect(let r) = self { r } else { nil } }
    var ackFields: [(String, JSONValue)]? { if case .ack(_, let fields) = self { fields } else { nil } }
    var errorCode: ErrorCode? { if case .error(let e) = self { e.code } else { nil } }
}
