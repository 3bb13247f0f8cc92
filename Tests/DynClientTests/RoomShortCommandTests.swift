import NetProtocol
import Testing
@testable import dynclient

/// `:join` and `:rooms` in the short syntax (docs/PROTOCOL.md, Rooms), and what the message bar says of
/// their acks.
@Suite struct RoomShortCommandTests {
    private func line(_ input: String) throws -> String? {
        let parsed = try ShortCommand.parse(input, context: ShortContext(selected: nil, cursor: nil, pingTime: nil))
        return parsed.bytes.map { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    @Test(.timeLimit(.minutes(1))) func joinAndRoomsSendTheirMessages() throws {
        #expect(try line("join lab") == #"{"type":"join","room":"lab"}"#)
        #expect(try line("join lab snap id=4") == #"{"type":"join","id":4,"room":"lab","scene":"snap"}"#)
        #expect(try line("join lab room_token=abc") == #"{"type":"join","room":"lab","room_token":"abc"}"#)
        #expect(try line("rooms") == #"{"type":"rooms"}"#)
        #expect(throws: ShortCommandError.self) { try line("join") }
        #expect(throws: ShortCommandError.self) { try line("rooms lab") }
    }

    @Test(.timeLimit(.minutes(1))) func theMessageBarSaysWhereTheClientWent() {
        #expect(RoomsText.joined([("room", .string("lab")), ("created", .bool(true)), ("room_token", .string("t1"))])
                == "joined lab (created; room token t1)")
        #expect(RoomsText.joined([("room", .string("main")), ("created", .bool(false))]) == "joined main")
        let list: [(String, JSONValue)] = [("rooms", .array([
            .object([("name", .string("lab")), ("clients", .number(2)), ("bodies", .number(12)), ("loaded", .bool(true))]),
            .object([("name", .string("old")), ("clients", .number(0)), ("bodies", .number(3)), ("loaded", .bool(false))]),
        ]))]
        #expect(RoomsText.list(list) == "rooms: lab 2 clients 12 items, old 0 clients 3 items (saved)")
    }
}
