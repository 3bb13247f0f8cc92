import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A Redis that SIGTERM can stop: started with SIGTERM and SIGINT unblocked (a child inherits the signal
/// mask of the thread that starts it, and Redis never unblocks them itself).
func stoppableRedis(port: UInt16? = nil) throws -> RedisServerProcess {
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGTERM)
    sigaddset(&unblock, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try RedisServerProcess(port: port)
}

extension RedisServerProcess {
    /// Sends a signal to Redis itself (SIGTERM, SIGKILL, SIGSTOP, SIGCONT).
    func signal(_ signum: Int32) { kill(process.processIdentifier, signum) }

    /// Waits for Redis to be gone (after SIGTERM or SIGKILL).
    func waitForExit(timeout: Double) -> Bool {
        waitUntil(timeout: timeout) { !process.isRunning }
    }

    /// `GET key` as text, read with `redis-cli` (nil: no such key, or Redis does not answer).
    func get(_ key: String) -> String? {
        guard let cli = ExternalTool.find("redis-cli"),
              let got = try? ExternalTool.run(cli, ["-p", String(port), "--raw", "GET", key]) else { return nil }
        let text = got.output.trimmingCharacters(in: .newlines)
        return text.isEmpty ? nil : text
    }

    /// `DEBUG SLEEP seconds`, sent without waiting for its answer: Redis stalls from now on.
    func stall(seconds: Double) throws -> BlockingSocket {
        let socket = try BlockingSocket(port: port)
        try socket.send("DEBUG SLEEP \(seconds)\r\n")
        return socket
    }
}

extension LineClient {
    /// One write through this client's room: a spawn. True: acknowledged; false: refused `unavailable`
    /// (the room is held); nil: anything else (a redirect, no answer).
    func tryWrite(id: Int, x: Int = 200) -> (acked: Bool?, body: Int?) {
        let line = #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":\#(x),"y":100,"id":\#(id)}"#
        guard let answer = try? request(line, id: .int(id), timeout: 3) else { return (nil, nil) }
        switch answer {
        case .ack(_, let fields): return (true, fields.number("body").map(Int.init))
        case .error(let error) where error.code == .unavailable: return (false, nil)
        default: return (nil, nil)
        }
    }
}

extension LineClient {
    /// A write sent to a room this client may be moved out of: whether it was acknowledged, and whether a
    /// `scene` (the client moved to another room, e.g. main after its room was lost) came before the answer.
    func writeAfterMove(id: Int) throws -> (acked: Bool, moved: Bool) {
        try send(#"{"type":"spawn","shape":"rect","width":10,"height":10,"x":200,"y":100,"id":\#(id)}"#)
        var moved = false
        let deadline = Date().addingTimeInterval(5)
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            switch message {
            case .scene: moved = true
            case .ack(let got, _) where got == .int(id): return (true, moved)
            case .error(let error) where error.id == .int(id): return (false, moved)
            default: continue
            }
        }
        return (false, moved)
    }
}

/// The `"tick":N` of a saved state (docs/STATE.md), nil when there is none.
func savedTick(_ state: String?) -> Int? {
    guard let state, let range = state.range(of: "\"tick\":") else { return nil }
    return Int(state[range.upperBound...].prefix { $0.isNumber })
}
