import CWslay
import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `GET /ws` (docs/PROTOCOL.md, WebSocket): the protocol's messages one per text frame, with the same
    /// session logic as TCP, read back from a real server over real sockets.
    @Suite(.serialized)
    struct WebSocketTests {
        /// A server on the `push` scene (one 80 x 80 square at (400, 300), no gravity) and its HTTP port.
        static func pushServer(_ extra: [String] = []) throws -> (ServerProcess, UInt16) {
            let server = try ServerProcess(["--scene", "push"] + extra)
            return (server, try #require(server.httpPort))
        }

        @Test(.timeLimit(.minutes(5))) func webSocketClientGetsWelcomeSceneAndSnapshotAsTextFrames() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            let joined = client.join()
            let welcome = try #require(joined.welcome)
            #expect(welcome.client >= 1)
            #expect(joined.scene?.name == "push")
            #expect(joined.scene?.bodies.count == 1)
            #expect(joined.snapshot?.bodies.count == 1)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func tapOverWebSocketIsAckedAndPushesTheBodyTowardTheTap() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            let body = try #require(client.join().scene?.bodies.first?.id)
            guard case let .ack(_, fields)? = try client.request(#"{"type":"tap","id":1,"x":600,"y":300}"#, id: .int(1)) else {
                Issue.record("tap not acked")
                return
            }
            #expect(fields.number("body") == Double(body))
            #expect(abs((fields.number("magnitude") ?? 0) - 1) < 1e-9, "200 pt to the right: magnitude 1")
            let moved = client.waitFor(timeout: 5) { message in
                guard case let .snapshot(s) = message, let state = s.body(body) else { return false }
                return state.x > 410
            }
            #expect(moved != nil, "the square moves right, toward the tap")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func tcpClientSeesWebSocketClientsDragAndTheReverse() throws {
            let (server, http) = try Self.pushServer()
            let tcp = try server.connect()
            let body = try #require(tcp.join().scene?.bodies.first?.id)
            let web = try WebSocketClient(port: http)
            let webID = try #require(web.join().welcome?.client)
            #expect(try web.request(#"{"type":"hello","name":"browser","id":"h"}"#, id: .string("h")) != nil)
            guard case .ack? = try web.request(#"{"type":"drag","phase":"begin","x":400,"y":300,"id":2}"#, id: .int(2)) else {
                Issue.record("websocket drag begin not acked")
                return
            }
            let seenByTCP = tcp.nextSnapshot(timeout: 5) { $0.drags.contains { $0.client == webID && $0.name == "browser" && $0.body == body } }
            #expect(seenByTCP != nil, "the TCP client sees the WebSocket client's drag with its name")
            #expect(seenByTCP?.clients == 2)

            let tcpID = try #require(try tcp.ack(#"{"type":"hello","name":"terminal","id":3}"#, id: 3)?.number("client"))
            guard case .ack? = try web.request(#"{"type":"drag","phase":"end","id":4}"#, id: .int(4)) else {
                Issue.record("websocket drag end not acked")
                return
            }
            #expect(try tcp.ack(#"{"type":"drag","phase":"begin","x":400,"y":300,"id":5}"#, id: 5) != nil)
            let seenByWeb = web.waitFor(timeout: 5) { message in
                guard case let .snapshot(s) = message else { return false }
                return s.drags.contains { Double($0.client) == tcpID && $0.name == "terminal" }
            }
            #expect(seenByWeb != nil, "the WebSocket client sees the TCP client's drag")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func pingFrameIsAnsweredWithPongCarryingTheSamePayload() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            try client.sendFrame(opcode: WSLAY_PING, Array("are you there".utf8))
            var pong: [UInt8]?
            while let frame = client.nextFrame(timeout: 5) {
                if case .pong(let payload) = frame { pong = payload; break }
            }
            #expect(pong.map { String(decoding: $0, as: UTF8.self) } == "are you there")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func closeFrameIsAnsweredWithCloseAndTheClientLeaves() throws {
            let (server, http) = try Self.pushServer()
            let observer = try server.connect()
            _ = observer.join()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            #expect(observer.nextSnapshot(timeout: 5) { $0.clients == 2 } != nil)
            try client.sendRaw(client.endpoint.close(code: 1000, reason: "bye"))
            #expect(client.closeStatus() == 1000, "the server echoes the Close status")
            _ = client.socket.receiveUntilClosed(timeout: 5)
            #expect(client.isClosedByPeer, "the server closes the TCP connection after the handshake")
            #expect(try observer.request(.ping(t: nil), id: .int(9)) != nil)
            let alone = observer.nextSnapshot(timeout: 5) { $0.clients == 1 }
            #expect(alone != nil, "the server counts one client again")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func fragmentedMessageWithAControlFrameInBetweenIsReassembled() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            let message = Array(#"{"type":"ping","id":"frag","t":42}"#.utf8)
            let frames = client.endpoint.fragmentedTextFrames(message, fragmentBytes: 10)
            #expect(frames.count == 4)
            // A ping control frame may arrive between fragments (RFC 6455 5.4).
            let ping = client.endpoint.frame(opcode: UInt8(WSLAY_PING.rawValue), [1, 2, 3])
            try client.sendRaw(frames[0] + frames[1] + ping + frames[2] + frames[3])
            guard case let .pong(t, _, id)? = client.waitFor(timeout: 5, { if case .pong = $0 { true } else { false } }) else {
                Issue.record("no pong for the fragmented ping")
                return
            }
            #expect(id == .string("frag"))
            #expect(t?.number == 42)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func oversizeMessageGetsLineTooLongAndTheConnectionStaysUsable() throws {
            let (server, http) = try Self.pushServer(["--max-line-bytes", "1024"])
            let client = try WebSocketClient(port: http)
            _ = client.join()
            let big = #"{"type":"ping","pad":""# + String(repeating: "x", count: 3000) + #""}"#
            try client.send(big)
            #expect(client.nextError()?.code == .lineTooLong)
            // The same, fragmented: discarded whole even though no single frame is too long.
            try client.sendRaw(client.endpoint.fragmentedText(Array(big.utf8), fragmentBytes: 500))
            #expect(client.nextError()?.code == .lineTooLong)
            #expect(client.answersPing(), "the connection stays usable")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func unmaskedClientFrameFailsTheConnectionWithProtocolError() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            var iocb = wslay_frame_iocb()
            iocb.fin = 1
            iocb.opcode = UInt8(WSLAY_TEXT_FRAME.rawValue)
            try client.sendRaw(WebSocketFrameWriter.frame(iocb: iocb, masked: false, payload: Array(#"{"type":"ping"}"#.utf8)))
            #expect(client.closeStatus() == 1002, "RFC 6455 5.1: a server must fail a connection with an unmasked frame")
            _ = client.socket.receiveUntilClosed(timeout: 5)
            #expect(client.isClosedByPeer)
            let other = try WebSocketClient(port: http)
            #expect(other.join().snapshot != nil, "the server still serves others")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func binaryFrameIsAnsweredWithBadJSONAndTheConnectionStaysUsable() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            try client.sendFrame(opcode: WSLAY_BINARY_FRAME, Array(#"{"type":"ping"}"#.utf8))
            #expect(client.nextError()?.code == .badJSON)
            #expect(client.answersPing())
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func oneTextFrameIsOneMessageEvenWithANewlineInside() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            try client.send("{\"type\":\"ping\",\"id\":1}\n{\"type\":\"ping\",\"id\":2}")
            let answer = client.waitFor(timeout: 5) { if case .error = $0 { true } else if case .pong = $0 { true } else { false } }
            guard case let .error(error)? = answer else {
                Issue.record("expected one bad_json, got \(String(describing: answer))")
                return
            }
            #expect(error.code == .badJSON, "two JSON objects in one frame are not one JSON message")
            #expect(client.answersPing())
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func invalidUTF8InATextFrameClosesWith1007() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            try client.sendRaw(client.endpoint.frame(opcode: UInt8(WSLAY_TEXT_FRAME.rawValue), [0x7B, 0xFF, 0xFE, 0x7D]))
            #expect(client.closeStatus() == 1007)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func tokenRulesApplyOverWebSocket() throws {
            let (server, http) = try Self.pushServer(["--token", "sesame"])
            let client = try WebSocketClient(port: http)
            guard case let .welcome(welcome)? = client.next() else {
                Issue.record("no welcome")
                return
            }
            #expect(welcome.authRequired)
            guard case let .error(error)? = try client.request(#"{"type":"tap","x":1,"y":1,"id":1}"#, id: .int(1)) else {
                Issue.record("tap before hello was not refused")
                return
            }
            #expect(error.code == .unauthorized)
            guard case .ack? = try client.request(#"{"type":"hello","token":"sesame","id":2}"#, id: .int(2)) else {
                Issue.record("hello with the token not acked")
                return
            }
            #expect(client.waitFor { if case .scene = $0 { true } else { false } } != nil, "the scene follows the hello")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func rateLimitAppliesOverWebSocket() throws {
            let (server, http) = try Self.pushServer(["--rate", "1", "--burst", "2"])
            let client = try WebSocketClient(port: http)
            _ = client.join()
            for i in 1...4 { try client.send(#"{"type":"ping","id":\#(i)}"#) }
            // As on TCP (docs/PROTOCOL.md, rate limit): one `rate_limited` for the burst, without an id, and the
            // commands over the rate are delayed to the rate, in order, never refused.
            var pongs: [MessageID] = [], limited: [ProtocolError] = []
            while pongs.count < 4, let message = client.waitFor(timeout: 10, { _ in true }) {
                switch message {
                case let .pong(_, _, id?): pongs.append(id)
                case let .error(error): limited.append(error)
                default: break
                }
            }
            #expect(pongs == [1, 2, 3, 4].map { MessageID.number("\($0)") })
            #expect(limited.map(\.code) == [.rateLimited])
            #expect(limited.first?.id == nil)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func shutdownSendsByeThenCloseFrame() throws {
            let (server, http) = try Self.pushServer()
            let client = try WebSocketClient(port: http)
            _ = client.join()
            server.signal(SIGTERM)
            let bye = client.waitFor(timeout: 5) { if case .bye = $0 { true } else { false } }
            #expect(bye == .bye(reason: "shutdown"))
            #expect(client.closeStatus() == 1001, "a Close frame (going away) follows the bye")
            #expect(server.waitForExit(timeout: 5) == 0)
        }

        @Test(.timeLimit(.minutes(5))) func fullServerAnswersAWebSocketWithServerFullThenClose() throws {
            let (server, http) = try Self.pushServer(["--max-clients", "1"])
            let tcp = try server.connect()
            #expect(tcp.join().snapshot != nil)
            let refused = try WebSocketClient(port: http)
            #expect(refused.nextError()?.code == .serverFull)
            #expect(refused.closeStatus() != nil, "a Close frame follows")
            _ = refused.socket.receiveUntilClosed(timeout: 5)
            #expect(refused.isClosedByPeer)
            #expect(tcp.answersPing(), "the admitted client is unaffected")
            withExtendedLifetime(server) {}
        }
    }
}
