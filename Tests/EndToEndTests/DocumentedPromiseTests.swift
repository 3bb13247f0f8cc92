import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Promises of docs/PROTOCOL.md no other suite exercises: the address and port flags, `--max-bodies`, the
    /// `too slow` drop, the 64-character name, a group holding an anchored member, HTTP `HEAD`, other methods
    /// and the request timeout.
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct DocumentedPromiseTests {
        @Test func hostBindsTheGivenAddressOnly() throws {
            let server = try ServerProcess(["--scene", "empty", "--host", "127.0.0.2", "--no-http"])
            let there = try LineClient(host: "127.0.0.2", port: server.port)
            #expect(there.join().welcome != nil, "a client on 127.0.0.2 is welcomed")
            #expect(throws: EndToEndError.self, "nothing listens on 127.0.0.1") { try LineClient(host: "127.0.0.1", port: server.port) }
        }

        @Test func httpPortListensWhereItIsTold() throws {
            let wanted = try TCPSocket.freePort()
            let server = try ServerProcess(["--scene", "empty", "--http-port", String(wanted)])
            #expect(server.httpPort == wanted, "stdout says http on \(String(describing: server.httpPort))")
            let reply = try #require(try HTTPReply.get(port: wanted, "/healthz"))
            #expect(reply.status == 200 && reply.body.hasPrefix("ok"), "\(reply.status) \(reply.body)")
        }

        @Test func maxBodiesRefusesTheSpawnThatWouldOverfillTheWorld() throws {
            let server = try ServerProcess(["--scene", "empty", "--held", "--max-bodies", "3"])
            let client = try server.connect()
            _ = client.joinLines()
            for id in 1...3 {
                let spawn = #"{"type":"spawn","shape":"rect","width":20,"height":20,"x":\#(100 * id),"y":100,"id":\#(id)}"#
                #expect(try client.exchange(spawn, id: id).last?.hasPrefix(#"{"type":"ack","id":\#(id),"body":"#) == true)
            }
            let fourth = try client.exchange(#"{"type":"spawn","shape":"rect","width":20,"height":20,"x":500,"y":100,"id":4}"#, id: 4)
            let error = try RawLines.object(try #require(fourth.last))
            #expect(error["type"] as? String == "error" && error["code"] as? String == "bad_value", "\(fourth)")
            #expect((error["message"] as? String ?? "").contains("3"), "the message names the limit: \(error)")
            #expect(fourth.dropLast().allSatisfy { RawLines.type($0) != "scene" }, "no scene for a refused spawn")
        }

        @Test func aClientWhoseUnsentBytesPassTheOutboxLimitIsDroppedAsTooSlow() throws {
            // Not held: the server checks its clients' backlogs as it ticks.
            let server = try ServerProcess(["--scene", "empty", "--max-outbox-bytes", "65536",
                                            "--rate", "100000", "--burst", "100000", "--send-buffer-bytes", "4096"])
            let admin = try server.connect()
            _ = admin.joinLines()
            let sleeper = try LineClient(port: server.port, receiveBufferBytes: 4096)   // never reads until the end
            _ = try #require(admin.nextSnapshot(timeout: 10) { $0.clients == 2 }, "the sleeper is connected")
            // Every spawn and remove sends everyone else a notice, and notices are never replaced like snapshots:
            // about a thousand of them (over 65 536 bytes, the smallest limit allowed) pile up for the sleeper;
            // the admin reads as it goes.
            var id = 0
            var dropped = false
            let deadline = Date().addingTimeInterval(60)
            while !dropped, id < 4000, Date() < deadline {
                for _ in 0..<50 {
                    id += 1
                    try admin.send(#"{"type":"spawn","shape":"rect","width":10,"height":10,"x":400,"y":300,"id":\#(id)}"#)
                    id += 1
                    try admin.send(#"{"type":"remove","body":\#(id / 2),"id":\#(id)}"#)
                }
                _ = admin.answer(to: .int(id), timeout: 20)
                dropped = server.stderr.contains("dropped: too slow")
            }
            // The server checks backlogs as it ticks: a fast server may take every command before the next tick.
            if !dropped { dropped = waitUntil(timeout: 10) { server.stderr.contains("dropped: too slow") } }
            #expect(dropped, "the server logs the drop: \(server.stderr.suffix(500))")
            #expect(server.stderr.contains(" bytes unsent"), "the reason counts the unsent bytes")
            // The bye goes after megabytes the sleeper never read, with half a second to flush: it may not
            // arrive, but the connection is closed; when it does arrive it is the last line and says why.
            let lines = sleeper.linesUntilClosed(timeout: 30)
            #expect(sleeper.isClosedByPeer, "the sleeper's connection is closed")
            if let last = lines.last, RawLines.type(last) == "bye" {
                #expect(last.hasPrefix(#"{"type":"bye","reason":"too slow: "#), "\(last)")
            }
            #expect(admin.answersPing(), "the admin is still served")
        }

        @Test func aNameIsCutToSixtyFourCharacters() throws {
            let server = try ServerProcess(["--scene", "push", "--held"])
            let named = try server.connect(), watcher = try server.connect()
            _ = named.joinLines()
            _ = watcher.joinLines()
            let long = String(repeating: "n", count: 64) + "TAIL"
            _ = try named.exchange(#"{"type":"hello","name":"\#(long)","id":1}"#, id: 1)
            _ = try named.exchange(#"{"type":"drag","phase":"begin","x":400,"y":300,"id":2}"#, id: 2)
            let stepped = try watcher.exchange(#"{"type":"step","ticks":1,"id":3}"#, id: 3)
            let snapshot = try RawLines.object(try #require(stepped.first { RawLines.type($0) == "snapshot" }))
            let drag = try #require((snapshot["drags"] as? [[String: Any]])?.first, "\(snapshot)")
            #expect(drag["name"] as? String == String(repeating: "n", count: 64), "the drag's name: \(drag["name"] ?? "none")")
        }

        @Test func aGroupWithAnAnchoredMemberHoldsStillUnderGravity() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.joinLines()
            _ = try client.exchange(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":400,"y":100,"id":1}"#, id: 1)
            _ = try client.exchange(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":460,"y":100,"anchored":true,"id":2}"#, id: 2)
            _ = try client.exchange(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":200,"y":100,"id":3}"#, id: 3)
            let grouped = try client.exchange(#"{"type":"group","bodies":[1,2],"id":4}"#, id: 4)
            #expect(RawLines.type(try #require(grouped.last)) == "ack", "a group may hold an anchored member: \(grouped.last ?? "")")
            let stepped = try #require(try client.step(60, id: 5))
            let member = try #require(stepped.body(1)), loose = try #require(stepped.body(3))
            // Held by the anchored member (a free fall would take it 500 pt down in that second); a sag of a
            // few hundredths of a point from the rigid projection is tolerated.
            #expect(abs(member.x - 400) < 0.5 && abs(member.y - 100) < 0.5, "the free member holds still: \(member)")
            #expect(try #require(stepped.body(2)).y == 100, "the anchored member never moves")
            #expect(loose.y > 150, "an ungrouped item falls meanwhile: \(loose.y)")
        }

        @Test func headAnswersLikeGetWithoutTheBodyAndOtherMethodsGet405() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let http = try #require(server.httpPort)
            let get = try #require(try HTTPReply.get(port: http, "/healthz"))
            let head = try #require(try HTTPReply.exchange(port: http, "HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == get.headers["content-length"], "HEAD announces GET's length")
            #expect(head.body.isEmpty, "HEAD sends no body: \(head.body.prefix(50))")
            let post = try #require(try HTTPReply.exchange(port: http, "POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"))
            #expect(post.status == 405)
        }

        @Test func aRequestNotCompleteWithinFiveSecondsIsClosed() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let http = try #require(server.httpPort)
            let socket = try BlockingSocket(port: http)
            try socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")   // the blank line never comes
            let started = Date()
            _ = socket.receiveUntilClosed(timeout: 40)
            #expect(socket.isClosedByPeer, "the server closed the unfinished request")
            // Not before its 5 s (docs/PROTOCOL.md, slow clients; a lower bound: a loaded machine can only make it later).
            #expect(Date().timeIntervalSince(started) > 4.5, "closed after \(Date().timeIntervalSince(started)) s")
            #expect(try HTTPReply.get(port: http, "/healthz")?.status == 200, "the server still answers")
        }
    }
}
