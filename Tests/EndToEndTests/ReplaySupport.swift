import Foundation
import NetProtocol
import Testing

/// Conveniences for the tests of docs/PROTOCOL.md's "Record, replay, checkpoints and the state hash".
extension LineClient {
    /// Sends `hash` and returns the ack's `tick` and `hash` (nil when the answer was not such an ack).
    func stateHash(id: Int) throws -> (tick: UInt64, hash: String)? {
        guard let fields = try ack(.hash, id: id), let tick = fields.number("tick"),
              let hash = fields.first(where: { $0.0 == "hash" })?.1.string else { return nil }
        return (UInt64(tick), hash)
    }

    /// Sends `line` (with `"id":id` inside) and returns the error code it was answered with, nil for an ack.
    func errorCode(_ line: String, id: Int) throws -> ErrorCode? {
        try error(line, id: .int(id))?.code
    }
}

/// One run of `dynserver replay …` to its end: its exit status, stdout and stderr.
struct ReplayRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The one JSON line a headless replay prints.
    var summary: JSONValue? {
        guard let line = stdout.split(separator: "\n").first else { return nil }
        return try? JSONParser.parse(Array(line.utf8))
    }

    /// Runs `dynserver replay ARGUMENTS` through the one launcher (`ChildProcess.run`: tied to the runner's life,
    /// both pipes drained concurrently, killed after `timeout` seconds); throws when it did not finish in time.
    static func run(_ arguments: [String], timeout: Double = 50) throws -> ReplayRun {
        let outcome = try ChildProcess.run(ServerProcess.dynserverPath, ["replay"] + arguments, timeout: timeout)
        guard let status = outcome.status else {
            throw EndToEndError("dynserver replay did not finish within \(timeout) s (killed); stderr: \(outcome.stderrText.suffix(2000))")
        }
        return ReplayRun(status: status, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }
}

/// A fresh directory for a recording, removed when the value goes away.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("dyn-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The lines of `name` parsed as JSON (the recording of one room).
    func jsonLines(_ name: String) throws -> [JSONValue] {
        let text = try String(contentsOfFile: path + "/" + name, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8), maxDepth: 64) }
    }
}
