import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The rooms over HTTP (`GET /r/NAME`, `GET /ws?room=NAME`, the `dyn_rooms*` metrics) and in `dynclient`
    /// (`--room`, `:join`, `:rooms`, the status line), through a real server (docs/PROTOCOL.md, Rooms).
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RoomHTTPAndClientTests {
        @Test func rSlashNameServesThePageAndBadNamesAre404() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let httpPort = try #require(server.httpPort)
            let page = try #require(try HTTPReply.get(port: httpPort, "/"))
            let roomPage = try #require(try HTTPReply.get(port: httpPort, "/r/lab"))
            #expect(roomPage.status == 200 && roomPage.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(roomPage.body == page.body, "the same page; it reads its room from the URL path")
            #expect(try HTTPReply.get(port: httpPort, "/r/bad!name")?.status == 404)
            #expect(try HTTPReply.get(port: httpPort, "/r/")?.status == 404)
            // Serving the page creates nothing: the room exists once the page joins it.
            let client = try server.connect()
            _ = client.join()
            #expect(try client.roomList(id: 1)?.map(\.name) == ["main"])
            withExtendedLifetime(server) {}
        }

        @Test func wsWithARoomJoinsItAtOnce() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let httpPort = try #require(server.httpPort)
            let socket = try WebSocketClient(port: httpPort, path: "/ws?room=lab")
            guard case .welcome(let welcome)? = socket.next() else { Issue.record("no welcome"); return }
            #expect(welcome.room == "lab")
            guard case .scene(let scene)? = socket.next() else { Issue.record("no scene"); return }
            #expect(scene.name == "empty")
            guard case .snapshot? = socket.next() else { Issue.record("no snapshot"); return }
            guard case .ack(_, let fields)? = socket.next() else { Issue.record("no ack"); return }
            #expect(fields.first { $0.0 == "room" }?.1 == .string("lab"))
            #expect(fields.first { $0.0 == "created" }?.1 == .bool(true))
            #expect(fields.first { $0.0 == "room_token" }?.1.string != nil)
            // A TCP client joining lab meets the WebSocket client there, and main has none.
            let tcp = try server.connect()
            _ = tcp.join()
            _ = try #require(try tcp.joinRoom("lab", id: 1).ack)
            let listed = try #require(try tcp.roomList(id: 2))
            #expect(listed.first { $0.name == "lab" }?.clients == 2)
            #expect(listed.first { $0.name == "main" }?.clients == 0)
            let metrics = try MetricsScrape.fetch(port: httpPort)
            #expect(metrics.value("dyn_rooms") == 2)
            #expect(metrics.value("dyn_rooms_created_total") == 1)
            #expect(metrics.value("dyn_clients") == 2)
            #expect(try HTTPReply.exchange(port: httpPort, "GET /ws?room=a%20b HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")?.status == 400)
            withExtendedLifetime(server) {}
        }

        @Test func wsWithARoomOnATokenServerJoinsItAtTheTokenHello() throws {
            let server = try ServerProcess(["--scene", "empty", "--token", "T"])
            let httpPort = try #require(server.httpPort)
            let socket = try WebSocketClient(port: httpPort, path: "/ws?room=lab")
            guard case .welcome(let welcome)? = socket.next() else { Issue.record("no welcome"); return }
            #expect(welcome.authRequired && welcome.room == "main", "not in lab before the token")
            try socket.send(#"{"type":"hello","token":"T","id":1}"#)
            guard case .scene? = socket.next() else { Issue.record("no scene after the hello"); return }
            guard case .snapshot? = socket.next() else { Issue.record("no snapshot"); return }
            guard case .ack(let id, let fields)? = socket.next() else { Issue.record("no ack"); return }
            #expect(id == .number("1"))
            #expect(fields.first { $0.0 == "room" }?.1 == .string("lab"))
            #expect(fields.first { $0.0 == "created" }?.1 == .bool(true))
            withExtendedLifetime(server) {}
        }

        @Test func headlessClientWithRoomJoinsItAndListsRooms() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--room", "lab", "--linger", "200"],
                                          stdin: "rooms id=r\njoin lab2 snap id=j\nwait 200\n")
            #expect(run.exitCode == 0)
            let messages = run.stdoutLines.compactMap { ServerMessage.decode($0) }
            let acks = messages.compactMap { message -> (MessageID?, [(String, JSONValue)])? in
                if case .ack(let id, let fields) = message { (id, fields) } else { nil }
            }
            let helloAck = try #require(acks.first { $0.1.contains { $0.0 == "room" } })
            #expect(helloAck.1.first { $0.0 == "room" }?.1 == .string("lab"))
            let rooms = try #require(acks.first { $0.0 == .string("r") })
            #expect(RoomEntry.list(rooms.1.first { $0.0 == "rooms" }?.1)?.map(\.name) == ["lab", "main"])
            let joined = try #require(acks.first { $0.0 == .string("j") })
            #expect(joined.1.first { $0.0 == "room" }?.1 == .string("lab2"))
            #expect(messages.contains { if case .scene(let s) = $0 { s.name == "snap" } else { false } })
            withExtendedLifetime(server) {}
        }

        @Test func terminalClientShowsItsRoomAndJoinsAnother() throws {
            let session = try ClientSession(clientArguments: ["--room", "lab"], awaitConnected: false)
            let bottom = ClientSession.rows - 1
            #expect(session.client.waitForScreen { $0.text(row: bottom).hasPrefix(" connected | room lab | scene empty") },
                    "no room in the status line:\n\(session.client.screen.text)")
            #expect(try session.control.roomList(id: 1)?.first { $0.name == "lab" }?.clients == 1)
            session.client.type(":join studio snap\r")
            #expect(session.client.waitForScreen { $0.text(row: bottom).hasPrefix(" connected | room studio | scene snap") },
                    "no studio in the status line:\n\(session.client.screen.text)")
            let listed = try #require(try session.control.roomList(id: 2))
            #expect(listed.first { $0.name == "studio" }?.clients == 1)
            #expect(listed.first { $0.name == "lab" }?.clients == 0)
            session.client.type(":rooms\r")
            #expect(session.client.waitForScreen { $0.contains("rooms: lab 0 clients") }, "\(session.client.screen.text)")
            session.client.type(":join main\r")
            #expect(session.client.waitForScreen { $0.text(row: bottom).hasPrefix(" connected | scene empty") })
            session.quit()
        }
    }
}
