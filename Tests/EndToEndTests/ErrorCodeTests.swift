import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Every error code of docs/PROTOCOL.md at least once, with the message's `id` echoed whenever it had one,
    /// and the connection still usable afterwards.
    @Suite(.serialized)
    struct ErrorCodeTests {
        @Test(.timeLimit(.minutes(5))) func brokenJSONAndInvalidUTF8AreBadJSON() throws {
            let (server, client) = try joined()
            try client.send(#"{"type":"ping","id":1"#)
            #expect(client.nextError()?.code == .badJSON)
            try client.sendRaw(Array(#"{"type":"ping","t":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8) + [0x0A])
            #expect(client.nextError()?.code == .badJSON)
            try expectStillUsable(client)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func nonObjectMissingOrMistypedFieldIsBadMessageWithTheId() throws {
            let (server, client) = try joined()
            try client.send("[1,2,3]")
            #expect(client.nextError()?.code == .badMessage)
            let mistyped = try client.error(#"{"type":"tap","id":5,"x":"left","y":1}"#, id: .int(5))
            #expect(mistyped?.code == .badMessage)
            let missing = try client.error(#"{"type":"snap","id":"m","x":1,"y":1}"#, id: .string("m"))
            #expect(missing?.code == .badMessage)
            try expectStillUsable(client)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func unknownTypeEchoesAStringId() throws {
            let (server, client) = try joined()
            let error = try client.error(#"{"type":"fly","id":"u-1"}"#, id: .string("u-1"))
            #expect(error?.code == .unknownType)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func overflowingLiteralAndOutOfRangeValuesAreBadValue() throws {
            let (server, client) = try joined()
            let body = try #require(client.lastScene?.bodies.first?.id)
            #expect(try client.error(#"{"type":"tap","id":7,"x":1e999,"y":1}"#, id: .int(7))?.code == .badValue)
            #expect(try client.error(#"{"type":"set","id":8,"body":\#(body),"elasticity":2}"#, id: .int(8))?.code == .badValue)
            #expect(try client.error(#"{"type":"spawn","id":9,"shape":"rect","width":-5,"height":5,"x":10,"y":10}"#, id: .int(9))?.code == .badValue)
            #expect(try client.error(#"{"type":"snap","id":10,"body":\#(body),"x":1,"y":1,"damping":1.5}"#, id: .int(10))?.code == .badValue)
            try expectStillUsable(client)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func commandOnAMissingBodyIsUnknownBody() throws {
            let (server, client) = try joined()
            #expect(try client.error(#"{"type":"push","id":11,"body":424242,"angle":0,"magnitude":1}"#, id: .int(11))?.code == .unknownBody)
            #expect(try client.error(#"{"type":"set","id":12,"body":424242,"friction":0.5}"#, id: .int(12))?.code == .unknownBody)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func tapOrDragWithNoItemAnywhereIsNoBody() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = client.join()
            #expect(try client.error(#"{"type":"tap","id":13,"x":100,"y":100}"#, id: .int(13))?.code == .noBody)
            #expect(try client.error(#"{"type":"drag","id":14,"phase":"begin","x":100,"y":100}"#, id: .int(14))?.code == .noBody)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func dragMoveOrEndWithoutBeginIsNotDragging() throws {
            let (server, client) = try joined()
            #expect(try client.error(#"{"type":"drag","id":15,"phase":"move","x":1,"y":1}"#, id: .int(15))?.code == .notDragging)
            #expect(try client.error(#"{"type":"drag","id":16,"phase":"end"}"#, id: .int(16))?.code == .notDragging)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func moreCommandsThanTheBucketAllowsAreRateLimited() throws {
            let server = try ServerProcess(["--scene", "push", "--rate", "5", "--burst", "5"])
            let client = try server.connect()
            _ = client.join()
            // Twelve pings in one write: the burst of 5 is answered at once; the sixth finds the bucket empty,
            // which costs one rate_limited error (no id: it refuses no command), and the server reads the rest
            // at 5/s. Every ping is answered, in order.
            try client.sendRaw(Array((1...12).map { #"{"type":"ping","id":\#($0)}"# + "\n" }.joined().utf8))
            var answers: [String] = []
            while answers.filter({ $0.hasPrefix("pong") }).count < 12, let message = client.next(timeout: 5) {
                switch message {
                case let .pong(_, _, id?): answers.append("pong \(id)")
                case let .error(error) where error.code == .rateLimited: answers.append("rate_limited \(error.id.map { "\($0)" } ?? "nil")")
                case .error(let error): Issue.record("unexpected error \(error)")
                default: break
                }
            }
            let pongs = (1...12).map { "pong \(MessageID.int($0))" }
            #expect(answers == Array(pongs.prefix(5)) + ["rate_limited nil"] + Array(pongs.dropFirst(5)), "\(answers)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func thirdClientOfTwoGetsOnlyServerFullAndIsClosed() throws {
            let server = try ServerProcess(["--max-clients", "2"])
            let first = try server.connect(), second = try server.connect()
            #expect(first.join().welcome != nil)
            #expect(second.join().welcome != nil)
            let third = try server.connect()
            let lines = third.linesUntilClosed(timeout: 5)
            #expect(lines.count == 1, "got \(lines.count) lines")
            guard case let .error(error)? = lines.first.flatMap(ServerMessage.decode) else {
                Issue.record("not an error: \(lines.first ?? "nothing")")
                return
            }
            #expect(error.code == .serverFull)
            #expect(third.isClosedByPeer)
            // The two admitted clients are unaffected.
            #expect(try first.currentTick() != nil)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func helloWithAnotherProtocolVersionIsProtocolMismatch() throws {
            let (server, client) = try joined()
            let error = try client.error(#"{"type":"hello","id":17,"protocol":2}"#, id: .int(17))
            #expect(error?.code == .protocolMismatch)
            let ok = try client.request(#"{"type":"hello","id":18,"protocol":1,"name":"tester"}"#, id: .int(18))
            guard case .ack? = ok else { Issue.record("hello protocol 1 not acked: \(String(describing: ok))"); return }
            withExtendedLifetime(server) {}
        }

        // unauthorized, forbidden and line_too_long are covered in AuthTests and FramingTests.

        private func joined() throws -> (ServerProcess, LineClient) {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            _ = try #require(client.join().scene)
            return (server, client)
        }

        private func expectStillUsable(_ client: LineClient) throws {
            guard case let .pong(t, _, _)? = try client.request(#"{"type":"ping","id":"after","t":1}"#, id: .string("after")) else {
                Issue.record("no pong after the error")
                return
            }
            #expect(t == .number(1))
        }
    }
}
