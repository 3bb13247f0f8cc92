import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` (Debian's, installed by scripts/bootstrap.sh) on a free port of 127.0.0.1, with no
/// persistence: a restarted one starts empty, as a Redis that lost its data would.
///
/// Guarantees: `init` returns once Redis accepts connections (or throws after 10 s); `stop()` kills it and
/// waits for it; the process is killed when this object goes away.
final class RedisProcess {
    let process = Process()
    let port: UInt16

    init(port: UInt16? = nil) throws {
        // The fleet tests need a real Redis (no mock): missing, it is a skip outside CI and a failure in CI.
        let path = try RequiredTool.redisServer.require()
        self.port = try port ?? TCPSocket.freePort()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--port", String(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--daemonize", "no", "--logfile", ""]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        let ready = waitUntil(timeout: 10) { (try? BlockingSocket(port: self.port)) != nil }
        guard ready else {
            stop()
            throw EndToEndError("redis-server did not listen on \(self.port) within 10 s")
        }
    }

    deinit { stop() }

    /// Kills Redis (SIGKILL) and waits for it to be gone.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The `--cluster` value for this Redis.
    var url: String { "redis://127.0.0.1:\(port)" }
}

/// A server of the fleet: `--cluster` on `redis`, advertised as 127.0.0.1 (its bound ports).
func fleetServer(_ redis: RedisProcess, _ extra: [String] = []) throws -> ServerProcess {
    let server = try ServerProcess(["--cluster", redis.url, "--advertise", "127.0.0.1", "--scene", "empty",
                                    "--state-interval", "0.5"] + extra)
    let httpPort = try #require(server.httpPort)
    // Connected to Redis: /healthz says 200 once the directory answers.
    guard waitUntil(timeout: 10, { (try? HTTPReply.get(port: httpPort, "/healthz"))??.status == 200 }) else {
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
