import Foundation
import Testing

/// Reading the server's lines as bytes, decoded by Foundation's `JSONSerialization` rather than the product's
/// own decoder: a mistake shared by the server's encoder and `ServerMessage.decode` cannot hide here.
enum RawLines {
    /// The JSON object on `line` (Foundation's reader); throws when the line is not one.
    static func object(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw EndToEndError("not a JSON object: \(line.prefix(200))")
        }
        return object
    }

    /// The `type` member of the object on `line` (nil when the line is not a JSON object).
    static func type(_ line: String) -> String? { (try? object(line))?["type"] as? String }

    /// True when `line` is the `ack`, `error` or `pong` whose `id` is `id`.
    static func answers(_ line: String, id: Int) -> Bool {
        guard let object = try? object(line), ["ack", "error", "pong"].contains(object["type"] as? String ?? "") else {
            return false
        }
        return (object["id"] as? NSNumber)?.intValue == id
    }
}

extension LineClient {
    /// Sends `request` (one JSON line carrying the numeric `id`) and returns every raw line read up to and
    /// including the one answering it; empty when no answer came within `timeout`.
    func exchange(_ request: String, id: Int, timeout: Double = 10) throws -> [String] {
        try send(request)
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            lines.append(line)
            if RawLines.answers(line, id: id) { return lines }
        }
        Issue.record("no answer to \(request) within \(timeout) s; read \(lines.map { $0.prefix(120) })")
        return []
    }

    /// Every raw line the server sent before its answer to a `ping` sent now (the pong itself left out): "nothing
    /// else came" as a condition rather than a quiet window. The server reads a connection's lines in order and
    /// sends what each caused before it reads the next, so whatever earlier commands (this client's or another's
    /// already answered) made it send is in the list, however late it would arrive on a loaded machine; a
    /// message that is merely slow cannot pass for one that never comes. Records an issue (and returns what came)
    /// when no pong arrives within `timeout`.
    func linesBeforePong(timeout: Double = 10) throws -> [String] {
        let marker = "before-pong-\(UInt32.random(in: 0...UInt32.max))"
        try send(#"{"type":"ping","id":"\#(marker)"}"#)
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if let object = try? RawLines.object(line), object["type"] as? String == "pong", object["id"] as? String == marker {
                return lines
            }
            lines.append(line)
        }
        Issue.record("no pong to the marker ping within \(timeout) s; read \(lines.map { $0.prefix(120) })")
        return lines
    }

    /// The raw lines of `welcome`, `scene` and the first snapshot (or frame), as they came.
    func joinLines(timeout: Double = 10) -> [String] {
        (0..<3).compactMap { _ in nextLine(timeout: timeout) }
    }
}
