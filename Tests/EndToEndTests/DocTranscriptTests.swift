import Foundation
import Testing

extension EndToEnd {
    /// docs/PROTOCOL.md's transcripts (fenced blocks tagged `transcript`, the convention at the top of the
    /// document) replayed against a real server, line by line: the document users read cannot drift from what
    /// the server says. Each transcript gets a fresh server (`--scene empty --held` unless the block says
    /// `# dynserver ARGS`) and one client past its join lines; `>` lines are sent, each `<` line must match the
    /// next line received (`…` for any text), snapshots, frames and scenes skipped unless the transcript
    /// expects one there; after the last line, nothing else may have come (read up to a marker ping's pong).
    @Suite(.serialized, .timeLimit(.minutes(10)))
    struct DocTranscriptTests {
        static let transcripts = DocTranscript.load()
        /// Lines a world sends on its own or as a side effect most transcripts leave out.
        static let unshownTypes: Set<String> = ["snapshot", "frame", "scene"]

        @Test func theDocumentHasItsTranscripts() {
            #expect(Self.transcripts.count >= 30, "docs/PROTOCOL.md has \(Self.transcripts.count) transcript blocks")
            #expect(Self.transcripts.allSatisfy { !$0.steps.isEmpty }, "an empty transcript block")
        }

        @Test(arguments: transcripts) func transcriptReplaysLineByLine(_ transcript: DocTranscript) throws {
            let server = try ServerProcess(transcript.serverArguments)
            let client = try server.connect()
            var steps = transcript.steps[...]
            // The join lines, unless the transcript shows them: welcome, then (without a required hello) the
            // scene and the first snapshot.
            if case .expect(let first)? = steps.first, DocTranscript.type(of: first) == "welcome" {
                // compared below like any other line
            } else {
                let welcome = try #require(client.nextLine(timeout: 10), "\(transcript): no welcome")
                if !welcome.contains(#""auth_required":true"#) { for _ in 0..<2 { _ = client.nextLine(timeout: 10) } }
            }
            for line in transcript.setup { try client.send(line) }
            if !transcript.setup.isEmpty { _ = try client.linesBeforePong() }
            while let step = steps.popFirst() {
                switch step {
                case .send(let line):
                    try client.send(line)
                case .expect(let expected):
                    let wanted = DocTranscript.type(of: expected)
                    var received: String?
                    while let line = client.nextLine(timeout: 10) {
                        let type = DocTranscript.type(of: line) ?? ""
                        if type != wanted && Self.unshownTypes.contains(type) { continue }
                        received = line
                        break
                    }
                    guard let received, DocTranscript.matches(received, expected) else {
                        Issue.record("\(transcript): the document says\n< \(expected)\nthe server sent\n< \(received ?? "nothing within 10 s")")
                        return
                    }
                }
            }
            let extra = try client.linesBeforePong().filter { !Self.unshownTypes.contains(DocTranscript.type(of: $0) ?? "") }
            #expect(extra.isEmpty, "\(transcript): the server also sent lines the document does not show: \(extra)")
            withExtendedLifetime(server) {}
        }
    }
}
