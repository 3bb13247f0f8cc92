import NetProtocol
import Testing
@testable import dynclient

@Suite struct ShortCommandTests {
    private func line(_ input: String) throws -> String {
        guard case let .send(bytes) = try ShortCommand.parse(input, pingTime: 12.5) else {
            Issue.record("\(input) should send")
            return ""
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func tapWithAndWithoutMode() throws {
        #expect(try line("tap 400 300") == "{\"type\":\"tap\",\"x\":400,\"y\":300,\"mode\":\"continuous\"}\n")
        #expect(try line("  tap\t400.5  -3 instantaneous ") ==
            "{\"type\":\"tap\",\"x\":400.5,\"y\":-3,\"mode\":\"instantaneous\"}\n")
    }

    @Test func dragPhases() throws {
        #expect(try line("drag begin 400 300") == "{\"type\":\"drag\",\"phase\":\"begin\",\"x\":400,\"y\":300}\n")
        #expect(try line("drag move 410 280") == "{\"type\":\"drag\",\"phase\":\"move\",\"x\":410,\"y\":280}\n")
        #expect(try line("drag end") == "{\"type\":\"drag\",\"phase\":\"end\"}\n")
    }

    @Test func snapPushPing() throws {
        #expect(try line("snap 3 200 150") == "{\"type\":\"snap\",\"body\":3,\"x\":200,\"y\":150}\n")
        #expect(try line("push 3 0 1 instantaneous") ==
            "{\"type\":\"push\",\"body\":3,\"angle\":0,\"magnitude\":1,\"mode\":\"instantaneous\"}\n")
        #expect(try line("push 3 1.5 -2") == "{\"type\":\"push\",\"body\":3,\"angle\":1.5,\"magnitude\":-2}\n")
        #expect(try line("ping") == "{\"type\":\"ping\",\"t\":12.5}\n")
    }

    @Test func everyShortLineDecodesAsTheServerWouldReadIt() throws {
        let decoded = ClientMessage.decode(try line("push 3 0 1 instantaneous"))
        #expect(decoded == .success(ClientMessage(.push(body: 3, direction: .angle(0, magnitude: 1),
                                                        mode: .instantaneous, active: nil, offset: nil))))
    }

    @Test func waitBlankCommentAndRawJSON() throws {
        #expect(try ShortCommand.parse("wait 500") == .wait(milliseconds: 500))
        #expect(try ShortCommand.parse("   ") == .nothing)
        #expect(try ShortCommand.parse("# a comment") == .nothing)
        #expect(try line(" {\"type\":\"gravity\",\"angle\":0} ") == "{\"type\":\"gravity\",\"angle\":0}\n")
        #expect(try line("{not json") == "{not json\n")
    }

    @Test func mistakesAreNamed() {
        let cases: [(String, String)] = [
            ("tap 1", "expected tap X Y [mode]"),
            ("tap x 2", "X: \"x\" is not a finite number"),
            ("tap 1 nan", "Y: \"nan\" is not a finite number"),
            ("tap 1 2 sideways", "mode: \"sideways\" is not continuous or instantaneous"),
            ("drag hold 1 2", "drag: expected begin, move or end"),
            ("drag end 1 2", "expected drag end"),
            ("drag move 1", "expected drag move X Y"),
            ("snap -1 2 3", "ID: \"-1\" is not a body id"),
            ("push 3 0", "expected push ID ANGLE MAGNITUDE [mode]"),
            ("ping 3", "expected ping"),
            ("wait -5", "wait: \"-5\" is not a whole number of milliseconds"),
        ]
        for (input, message) in cases {
            #expect(throws: ShortCommandError(message: message), "\(input)") { try ShortCommand.parse(input) }
        }
        #expect(throws: ShortCommandError.self) { try ShortCommand.parse("jump 1 2") }
    }
}
