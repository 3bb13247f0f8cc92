import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `--token` and `--admin-token` (docs/PROTOCOL.md, Security).
    @Suite(.serialized)
    struct AuthTests {
        @Test(.timeLimit(.minutes(5))) func beforeAGoodHelloOnlyPingIsAnsweredAndNoSceneOrSnapshotArrives() throws {
            let server = try ServerProcess(["--scene", "default", "--token", "T0k"])
            let client = try server.connect()
            let welcome = try #require(client.nextLine(timeout: 10))
            #expect(welcome.contains(#""auth_required":true"#))

            try client.send(#"{"type":"tap","id":1,"x":100,"y":100}"#)
            try client.send(#"{"type":"spawn","id":2,"shape":"rect","width":10,"height":10,"x":50,"y":50}"#)
            try client.send(#"{"type":"ping","id":3,"t":"x"}"#)
            try client.send(#"{"type":"hello","id":4,"token":"wrong"}"#)
            // The default scene moves all the time: a second of silence means nothing was sent to this client.
            var lines: [String] = []
            while let line = client.nextLine(timeout: 1.0) { lines.append(line) }
            #expect(!lines.contains { $0.contains(#""type":"scene""#) || $0.contains(#""type":"snapshot""#) }, "\(lines)")
            let messages = lines.compactMap(ServerMessage.decode)
            #expect(messages.count == 4)
            let codes = messages.compactMap { m -> (MessageID?, ErrorCode)? in
                if case let .error(e) = m { return (e.id, e.code) } else { return nil }
            }
            #expect(codes.map(\.0) == [.int(1), .int(2), .int(4)])
            #expect(codes.allSatisfy { $0.1 == .unauthorized })
            #expect(messages.contains { if case .pong(.string("x"), _, .int(3)) = $0 { true } else { false } })

            let ack = try client.request(#"{"type":"hello","id":5,"token":"T0k","name":"ok"}"#, id: .int(5))
            guard case .ack? = ack else { Issue.record("good hello not acked: \(String(describing: ack))"); return }
            #expect(client.nextScene()?.name == "default")
            #expect(client.nextSnapshot() != nil)
            #expect(try client.ack(#"{"type":"tap","id":6,"x":100,"y":100}"#, id: 6) != nil)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func worldChangingCommandsNeedTheAdminTokenOthersDoNot() throws {
            let server = try ServerProcess(["--scene", "push", "--admin-token", "Adm1n"])
            let player = try server.connect(), admin = try server.connect()
            let body = try #require(player.join().scene?.bodies.first?.id)
            _ = try #require(admin.join().scene)

            let refused = [
                (1, #"{"type":"spawn","id":1,"shape":"rect","width":10,"height":10,"x":50,"y":50}"#),
                (2, #"{"type":"set","id":2,"body":\#(body),"friction":0.5}"#),
                (3, #"{"type":"gravity","id":3,"magnitude":0.5}"#),
                (4, #"{"type":"collision","id":4,"mode":"items"}"#),
                (5, #"{"type":"remove","id":5,"body":\#(body)}"#),
                (6, #"{"type":"scene","id":6,"name":"empty"}"#),
            ]
            for (id, line) in refused {
                #expect(try player.error(line, id: .int(id))?.code == .forbidden, "\(line)")
            }
            #expect(player.sceneCount == 1, "nothing changed: no new scene was broadcast")
            // Playing is open to everyone.
            #expect(try player.ack(#"{"type":"tap","id":7,"x":450,"y":300}"#, id: 7) != nil)

            guard case let .ack(_, hello)? = try admin.request(#"{"type":"hello","id":8,"token":"Adm1n"}"#, id: .int(8)) else {
                Issue.record("admin hello not acked")
                return
            }
            #expect(hello.first { $0.0 == "admin" }?.1 == .bool(true))
            let fields = try #require(try admin.ack(
                #"{"type":"spawn","id":9,"shape":"rect","width":10,"height":10,"x":50,"y":50}"#, id: 9))
            #expect(fields.number("body") != nil)
            withExtendedLifetime(server) {}
        }
    }
}
