import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One real `redis-server` on `127.0.0.1`, for tests of features that talk to Redis.
///
/// Guarantees: `init` returns once the server answers `PING` with `+PONG` on `port` (or throws within
/// `timeout`, with its log); it keeps nothing on disk (no RDB, no AOF); it is tied to the runner's life
/// (`ChildProcess.launch`) and killed when this object goes away. Use it behind `RequiredTool.redisServer.trait`
/// and `try RequiredTool.redisServer.require()`, so that a machine without Redis skips (or fails under CI).
final class RedisServerProcess {
    let process = Process()
    let port: UInt16
    private let directory: URL

    /// `port`: a given port (to start Redis again where a stopped one was), else a free one.
    init(port given: UInt16? = nil, timeout: Double = 20) throws {
        let binary = try RequiredTool.redisServer.require()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dyn-redis-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try given ?? TCPSocket.freePort()
        let log = directory.appendingPathComponent("redis.log")
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", directory.path, "--logfile", log.path, "--daemonize", "no",
                             // DEBUG SLEEP stalls Redis in the fleet's chaos tests.
                             "--enable-debug-command", "local"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? command("PING")) == "+PONG\r\n" { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw EndToEndError("redis-server did not answer PING on port \(port) within \(timeout) s; log:\n\(text.suffix(2000))")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills Redis (SIGKILL) and waits for it to be gone: as a crashed Redis, it keeps nothing.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The `--cluster` value for this Redis.
    var url: String { "redis://127.0.0.1:\(port)" }

    /// Sends one inline command (`PING`, `SET k v`, ...) on a fresh connection and returns the raw reply.
    func command(_ line: String, timeout: Double = 5) throws -> String {
        let socket = try BlockingSocket(port: port)
        try socket.send(line + "\r\n")
        var reply: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while reply.suffix(2) != [13, 10], Date() < deadline, !socket.isClosedByPeer {
            reply += socket.receive(timeout: max(0, deadline.timeIntervalSinceNow))
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
