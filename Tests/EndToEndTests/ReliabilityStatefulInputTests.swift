import NetProtocol
import Testing

extension EndToEnd {
    /// Bad input that depends on what happened before: removed items, ended drags, the token and
    /// admin-token gates. Each answer is checked, and the connection must still answer a `ping` afterwards.
    @Suite(.serialized)
    struct ReliabilityStatefulInputTests {
        @Test(.timeLimit(.minutes(15))) func everyCommandNamingARemovedItemIsUnknownBody() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = try #require(client.join().welcome)
            let spawned = try #require(try client.ack(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":400,"y":300,"id":1}"#, id: 1))
            let body = Int(try #require(spawned.number("body")))
            #expect(try client.ack(#"{"type":"remove","body":\#(body),"id":2}"#, id: 2)?.number("body") == Double(body))
            let lines = [
                #"{"type":"tap","x":1,"y":1,"body":\#(body)"#,
                #"{"type":"push","body":\#(body),"angle":0,"magnitude":1"#,
                #"{"type":"snap","body":\#(body),"x":10,"y":10"#,
                #"{"type":"snap","body":\#(body),"active":false"#,
                #"{"type":"set","body":\#(body),"density":2"#,
                #"{"type":"drag","phase":"begin","x":400,"y":300,"body":\#(body)"#,
                #"{"type":"remove","body":\#(body)"#,
            ]
            for (index, line) in lines.enumerated() {
                let id = MessageID.number(String(10 + index))
                let error = try client.error(line + #","id":\#(10 + index)}"#, id: id)
                #expect(error?.code == .unknownBody, "\(line): \(String(describing: error))")
            }
            #expect(client.answersPing())
        }

        @Test(.timeLimit(.minutes(15))) func dragMoveAfterDragEndIsNotDragging() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let body = try #require(scene.bodies.first?.id)
            #expect(try client.ack(#"{"type":"drag","phase":"begin","x":400,"y":300,"id":1}"#, id: 1)?.number("body") == Double(body))
            #expect(try client.ack(#"{"type":"drag","phase":"end","id":2}"#, id: 2)?.number("body") == Double(body))
            #expect(try client.error(#"{"type":"drag","phase":"move","x":420,"y":300,"id":3}"#, id: .int(3))?.code == .notDragging)
            #expect(try client.error(#"{"type":"drag","phase":"end","id":4}"#, id: .int(4))?.code == .notDragging)
            #expect(client.answersPing())
        }

        @Test(.timeLimit(.minutes(15))) func removingTheDraggedItemEndsTheDrag() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let body = try #require(scene.bodies.first?.id)
            #expect(try client.ack(#"{"type":"drag","phase":"begin","x":400,"y":300,"id":1}"#, id: 1) != nil)
            #expect(try client.ack(#"{"type":"remove","body":\#(body),"id":2}"#, id: 2) != nil)
            #expect(try client.error(#"{"type":"drag","phase":"move","x":420,"y":300,"id":3}"#, id: .int(3))?.code == .notDragging)
            let after = try client.snapshotsAfterNow(for: 1.2)
            #expect(!after.isEmpty)
            #expect(after.allSatisfy { $0.drags.isEmpty && $0.bodies.isEmpty })
        }

        @Test(.timeLimit(.minutes(15))) func commandsBeforeHelloOnATokenServerAreUnauthorizedAndNothingIsSent() throws {
            let server = try ServerProcess(["--token", "sesame"])
            let client = try server.connect()
            guard case let .welcome(welcome)? = client.next(timeout: 10) else {
                Issue.record("no welcome")
                return
            }
            #expect(welcome.authRequired)
            let commands = [
                #"{"type":"tap","x":400,"y":300"#, #"{"type":"drag","phase":"begin","x":400,"y":300"#,
                #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":400,"y":300"#,
                #"{"type":"scene","name":"empty""#, #"{"type":"gravity","magnitude":0"#,
            ]
            for (index, line) in commands.enumerated() {
                let error = try client.error(line + #","id":\#(index + 1)}"#, id: .int(index + 1))
                #expect(error?.code == .unauthorized, "\(line)")
            }
            #expect(try client.error(#"{"type":"hello","token":"wrong","id":"h0"}"#, id: .string("h0"))?.code == .unauthorized)
            // Everything so far was answered; no scene or snapshot may have been sent in between.
            #expect(client.sceneCount == 0)
            #expect(client.answersPing())
            #expect(client.nextSnapshot(timeout: 0.5) == nil, "no snapshot before a good hello")

            try client.send(#"{"type":"hello","token":"sesame","name":"ok","id":"h1"}"#)
            guard case let .ack(id, _)? = client.next() else {
                Issue.record("a good hello is acked first")
                return
            }
            #expect(id == .string("h1"))
            guard case .scene? = client.next(), case .snapshot? = client.next() else {
                Issue.record("scene and snapshot follow the ack of a good hello")
                return
            }
            #expect(try client.ack(#"{"type":"tap","x":400,"y":300,"id":9}"#, id: 9) != nil)
        }

        @Test(.timeLimit(.minutes(15))) func structuralCommandsWithoutTheAdminTokenAreForbidden() throws {
            let server = try ServerProcess(["--admin-token", "root"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let body = try #require(scene.bodies.first { !$0.anchored }?.id)
            let structural = [
                #"{"type":"set","body":\#(body),"density":3"#, #"{"type":"gravity","magnitude":0"#,
                #"{"type":"collision","mode":"items""#, #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":400,"y":300"#,
                #"{"type":"remove","body":\#(body)"#, #"{"type":"scene","name":"empty""#,
            ]
            for (index, line) in structural.enumerated() {
                #expect(try client.error(line + #","id":\#(index + 1)}"#, id: .int(index + 1))?.code == .forbidden, "\(line)")
            }
            #expect(try client.ack(#"{"type":"tap","x":400,"y":300,"id":20}"#, id: 20) != nil, "non-structural commands pass")
            let hello = try client.ack(#"{"type":"hello","token":"root","id":21}"#, id: 21)
            #expect(hello?.first { $0.0 == "admin" }?.1 == .bool(true))
            #expect(try client.ack(#"{"type":"gravity","magnitude":0.5,"id":22}"#, id: 22)?.number("magnitude") == 0.5)
        }
    }
}
