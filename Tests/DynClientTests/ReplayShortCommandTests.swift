import NetProtocol
import Testing
@testable import dynclient

/// `:hash`, `:checkpoint NAME` and `:restore NAME` in the short syntax (docs/PROTOCOL.md, "Record, replay,
/// checkpoints and the state hash"), and their place in the help.
@Suite struct ReplayShortCommandTests {
    private func line(_ input: String) throws -> String? {
        let parsed = try ShortCommand.parse(input, context: ShortContext(selected: nil, cursor: nil, pingTime: nil))
        return parsed.bytes.map { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    @Test(.timeLimit(.minutes(1))) func hashCheckpointAndRestoreSendTheirMessages() throws {
        #expect(try line("hash") == #"{"type":"hash"}"#)
        #expect(try line("hash id=7") == #"{"type":"hash","id":7}"#)
        #expect(try line("checkpoint start") == #"{"type":"checkpoint","name":"start"}"#)
        #expect(try line("restore start id=2") == #"{"type":"restore","id":2,"name":"start"}"#)
        #expect(throws: ShortCommandError.self) { try line("checkpoint") }
        #expect(throws: ShortCommandError.self) { try line("restore a b") }
        #expect(throws: ShortCommandError.self) { try line("hash now") }
    }

    @Test(.timeLimit(.minutes(1))) func theHelpAndTheUsageNameThem() {
        #expect(HelpText.commands.contains("hash / checkpoint NAME / restore NAME"))
        #expect(ShortCommand.usage.contains("checkpoint NAME"))
        #expect(ShortCommand.usage.contains("restore NAME"))
    }
}
