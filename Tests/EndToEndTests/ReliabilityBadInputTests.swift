import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Bad input: every kind of hostile line gets exactly the answer the protocol promises, and the
    /// connection stays usable (a `ping` sent after it gets its `pong`).
    @Suite(.serialized)
    struct ReliabilityBadInputTests {
        @Test(.timeLimit(.minutes(15))) func theTableHoldsAtLeast25DistinctKinds() {
            let kinds = Set(BadInputCase.stateless.map(\.kind))
            #expect(kinds.count == BadInputCase.stateless.count, "kinds are distinct")
            #expect(kinds.count >= 25)
        }

        @Test(.timeLimit(.minutes(15)), arguments: BadInputCase.stateless)
        func badLineGetsExactlyItsAnswerAndTheConnectionStays(_ input: BadInputCase) throws {
            let server = try ServerProcess()
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let body = try #require(scene.bodies.first { !$0.anchored }?.id, "the default scene has a movable body")
            try client.sendRaw(input.line(body: body) + [0x0A])
            let answers = try client.answersUntilPong()
            try #require(answers.count == 1, "exactly one answer, got \(answers.count): \(answers)")
            switch (input.answer, answers[0]) {
            case let (.error(code, id), .error(error)):
                #expect(error.code == code, "\(error.message)")
                #expect(error.id == id)
            case let (.pong(id, t), .pong(echo, _, echoID)):
                #expect(echoID == id)
                #expect(echo == .number(t))
            case let (.ack(id), .ack(echo, _)):
                #expect(echo == id)
            case let (expected, got):
                Issue.record("expected \(expected), got \(got)")
            }
        }

        @Test(.timeLimit(.minutes(15))) func tenMegabyteLineWithoutNewlineIsOneLineTooLongThenTheNextLineWorks() throws {
            let server = try ServerProcess()
            let client = try server.connect()
            _ = try #require(client.join().welcome)
            let baselineKB = server.probe.residentKB
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            try client.sendRaw(Array(#"{"type":"ping","t":""#.utf8))
            for _ in 0..<10 { try client.sendRaw(chunk) }
            try client.sendRaw(Array("\"}\n".utf8))
            let answers = try client.answersUntilPong()
            #expect(answers.count == 1)
            guard case let .error(error)? = answers.first else {
                Issue.record("no error for the 10 MB line: \(answers)")
                return
            }
            #expect(error.code == .lineTooLong)
            // A buffered line would add its 10 MB (10 240 KB) to the server's resident memory.
            let grownKB = server.probe.residentKB - baselineKB
            #expect(grownKB < 5_000, "the server never buffered the line: RSS grew \(grownKB) KB")
        }

        @Test(.timeLimit(.minutes(15))) func crlfAndEmptyLinesAreToleratedBetweenCommands() throws {
            let server = try ServerProcess()
            let client = try server.connect()
            _ = try #require(client.join().welcome)
            try client.sendRaw(Array("\n\r\n\n{\"type\":\"ping\",\"t\":1,\"id\":\"c1\"}\r\n\n".utf8))
            let answers = try client.answersUntilPong()
            #expect(answers.count == 1)
            guard case let .pong(t, _, id)? = answers.first else {
                Issue.record("no pong: \(answers)")
                return
            }
            #expect(id == .string("c1"))
            #expect(t == .number(1))
        }

        @Test(.timeLimit(.minutes(15))) func hundredBadLinesInOneWriteGetHundredErrorsInOrder() throws {
            let server = try ServerProcess()
            let client = try server.connect()
            _ = try #require(client.join().welcome)
            var batch: [UInt8] = []
            for i in 0..<100 { batch += Array("{\"type\":\"nope\",\"id\":\(i)}\n".utf8) }
            try client.sendRaw(batch)
            let answers = try client.answersUntilPong()
            let ids = answers.compactMap { answer -> String? in
                guard case let .error(error) = answer, error.code == .unknownType, case let .number(text)? = error.id else { return nil }
                return text
            }
            #expect(ids == (0..<100).map(String.init))
        }
    }
}

extension LineClient {
    /// Sends a `ping` with a fresh id and returns every `ack`, `error` and `pong` read before that ping's
    /// `pong` (which is not included). Fails the test when the `pong` never comes: the connection was lost.
    func answersUntilPong(timeout: Double = 15) throws -> [ServerMessage] {
        let marker = MessageID.string("after-\(UInt32.random(in: 0...UInt32.max))")
        try send(ClientMessage(id: marker, .ping(t: nil)))
        var answers: [ServerMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            switch message {
            case let .pong(_, _, id) where id == marker:
                return answers
            case .ack, .error, .pong:
                answers.append(message)
            default:
                continue
            }
        }
        Issue.record("no pong within \(timeout) s: the connection was not kept (closed: \(isClosedByPeer))")
        return answers
    }
}
