import Foundation

/// One request/answer transcript of docs/PROTOCOL.md: a fenced block tagged `transcript` (the convention is
/// written at the top of that document).
///
/// Guarantees: `load` returns every such block of the document in order, with its first line number; a
/// block's `steps` are its `>` (sent) and `<` (expected) lines, a line indented under another continuing it
/// (joined without the indentation); `# dynserver ARGS` lines set the server's arguments (default
/// `--scene empty --held`); `# setup > LINE` lines are sent first, unseen; other `#` lines are comments. `matches` compares a received line with an
/// expected one, where `…` stands for any text (what really varies: ids, ticks, times, tokens, long lists).
struct DocTranscript: CustomStringConvertible, Sendable {
    enum Step: Sendable {
        case send(String)
        case expect(String)
    }

    /// The line of the opening fence in the document (1-based).
    let line: Int
    var serverArguments = ["--scene", "empty", "--held"]
    /// `# setup > LINE` lines: sent before the transcript, their answers read unseen.
    var setup: [String] = []
    var steps: [Step] = []

    var description: String { "docs/PROTOCOL.md:\(line)" }

    /// The document, found from this source file's place in the repository.
    static var documentPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md").path
    }

    static func load(_ path: String = documentPath) -> [DocTranscript] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var transcripts: [DocTranscript] = []
        var current: DocTranscript?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```transcript" { current = DocTranscript(line: index + 1) }
                continue
            }
            if trimmed == "```" {
                if let done = current { transcripts.append(done) }
                current = nil
                continue
            }
            if trimmed.hasPrefix("# setup > ") {
                current?.setup.append(String(trimmed.dropFirst("# setup > ".count)))
            } else if trimmed.hasPrefix("# dynserver") {
                current?.serverArguments = trimmed.dropFirst("# dynserver".count).split(separator: " ").map(String.init)
            } else if trimmed.hasPrefix("#") || trimmed.isEmpty {
                continue
            } else if trimmed.hasPrefix("> ") {
                current?.steps.append(.send(String(trimmed.dropFirst(2))))
            } else if trimmed.hasPrefix("< ") {
                current?.steps.append(.expect(String(trimmed.dropFirst(2))))
            } else if let last = current?.steps.popLast() {
                // A continuation of the line above, indented in the document.
                switch last {
                case .send(let text): current?.steps.append(.send(text + trimmed))
                case .expect(let text): current?.steps.append(.expect(text + trimmed))
                }
            }
        }
        return transcripts
    }

    /// True when `received` is `expected` with each `…` standing for any text.
    static func matches(_ received: String, _ expected: String) -> Bool {
        let parts = expected.components(separatedBy: "…")
        guard parts.count > 1 else { return received == expected }
        let pattern = "^" + parts.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: ".*") + "$"
        return received.range(of: pattern, options: .regularExpression) != nil
    }

    /// The `type` of a JSON line, read from its first member (`{"type":"X"…`).
    static func type(of line: String) -> String? {
        let prefix = #"{"type":""#
        guard line.hasPrefix(prefix) else { return nil }
        return String(line.dropFirst(prefix.count).prefix { $0 != "\"" })
    }
}
