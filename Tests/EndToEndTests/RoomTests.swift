import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Rooms (docs/PROTOCOL.md, Rooms): `join` and its answer, names and limits, `rooms` and `GET /rooms`,
    /// rights with `room_token`, `--no-room-create`, and the HTTP routes, through a real server.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RoomTests {
        @Test func joinCreatesTheRoomAndAnswersSceneStateThenAck() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let alice = try server.connect()
            #expect(alice.join().welcome?.room == "main")
            let created = try alice.joinRoom("lab", #""scene":"snap""#, id: 1)
            #expect(created.order == ["scene", "state", "ack"])
            #expect(created.scene?.name == "snap")
            #expect(created.room == "lab" && created.created == true && created.admin == true)
            let token = try #require(created.roomToken)
            #expect(token.count >= 16)
            // The state is the new room's: a snapshot of the snap scene's bodies at the room's own tick.
            guard case .snapshot(let state)? = created.state else { Issue.record("no snapshot after the scene"); return }
            #expect(Set(state.bodies.map(\.id)) == Set(try #require(created.scene).bodies.map(\.id)))

            let bob = try server.connect()
            _ = bob.join()
            let joined = try bob.joinRoom("lab", #""scene":"default""#, id: 1)
            #expect(joined.order == ["scene", "state", "ack"])
            #expect(joined.scene?.name == "snap", "an existing room keeps its scene")
            #expect(joined.created == false && joined.roomToken == nil)
            withExtendedLifetime(server) {}
        }

        @Test func roomsAndGetRoomsListWhatIsReallyThere() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let httpPort = try #require(server.httpPort)
            let alice = try server.connect()
            _ = alice.join()
            _ = try #require(try alice.joinRoom("lab", #""scene":"snap""#, id: 1).ack)
            let bob = try server.connect()
            _ = bob.join()
            _ = try #require(try bob.joinRoom("lab", id: 1).ack)
            let carol = try server.connect()
            _ = carol.join()
            _ = try #require(try carol.joinRoom("box", #""scene":"elasticity""#, id: 1).ack)
            #expect(try carol.ack(#"{"type":"pause","id":2}"#, id: 2) != nil)
            let snapBodies = try #require(try alice.roomList(id: 2)?.first { $0.name == "lab" }).bodies
            let listed = try #require(try alice.roomList(id: 3))
            #expect(listed.map(\.name) == ["box", "lab", "main"], "sorted by name")
            let lab = try #require(listed.first { $0.name == "lab" })
            #expect(lab.clients == 2 && lab.scene == "snap" && lab.loaded && lab.bodies == snapBodies && lab.bodies > 0)
            let box = try #require(listed.first { $0.name == "box" })
            #expect(box.clients == 1 && box.scene == "elasticity" && box.held)
            let main = try #require(listed.first { $0.name == "main" })
            #expect(main.clients == 0 && main.scene == "empty" && main.bodies == 0)
            #expect(try httpRooms(port: httpPort) == listed)
            withExtendedLifetime(server) {}
        }

        @Test func badNamesAreBadValueAndTheRoomLimitCountsMain() throws {
            let server = try ServerProcess(["--scene", "empty", "--max-rooms", "2"])
            let client = try server.connect()
            _ = client.join()
            let long = String(repeating: "a", count: 65)
            for (index, name) in ["", long, "-lab", ".lab", "a b", "a/b", "lab!", "é"].enumerated() {
                let answer = try client.joinRoom(name, id: 10 + index)
                #expect(answer.error?.code == .badValue, "\(name): \(String(describing: answer.error))")
            }
            #expect(try client.joinRoom(String(repeating: "b", count: 64), id: 30).created == true, "64 bytes is a name")
            let refused = try client.joinRoom("third", id: 31)
            #expect(refused.error?.code == .roomLimit)
            #expect(try client.roomList(id: 32)?.map(\.name) == [String(repeating: "b", count: 64), "main"])
            withExtendedLifetime(server) {}
        }

        @Test func noRoomCreateForbidsNewRoomsButNotMain() throws {
            let server = try ServerProcess(["--scene", "empty", "--no-room-create"])
            let client = try server.connect()
            _ = client.join()
            #expect(try client.joinRoom("lab", id: 1).error?.code == .forbidden)
            let main = try client.joinRoom("main", id: 2)
            #expect(main.room == "main" && main.created == false)
            #expect(try client.roomList(id: 3)?.map(\.name) == ["main"])
            withExtendedLifetime(server) {}
        }

        @Test func joinNeedsTheTokenHelloAndHelloCanCarryTheRoom() throws {
            let server = try ServerProcess(["--scene", "empty", "--token", "T"])
            let client = try server.connect()
            guard case .welcome(let welcome)? = client.next() else { Issue.record("no welcome"); return }
            #expect(welcome.authRequired == true && welcome.room == "main")
            #expect(try client.joinRoom("lab", id: 1).error?.code == .unauthorized)
            guard case .error(let refused)? = try client.request(.rooms, id: .number("2")) else {
                Issue.record("rooms before the token hello was not refused")
                return
            }
            #expect(refused.code == .unauthorized)
            try client.send(#"{"type":"hello","id":3,"token":"T","room":"lab"}"#)
            let answer = client.readJoin(id: 3)
            #expect(answer.order == ["scene", "state", "ack"])
            #expect(answer.room == "lab" && answer.created == true && answer.roomToken != nil)
            withExtendedLifetime(server) {}
        }

        @Test func maxClientsCountsEveryRoomAndMaxBodiesIsPerRoom() throws {
            let server = try ServerProcess(["--scene", "empty", "--max-clients", "2", "--max-bodies", "2"])
            let alice = try server.connect()
            _ = alice.join()
            _ = try #require(try alice.joinRoom("lab", id: 1).ack)
            let bob = try server.connect()
            _ = bob.join()
            let carol = try server.connect()
            #expect(carol.nextError()?.code == .serverFull, "two clients in two rooms fill a --max-clients 2 server")
            let spawn = #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":50,"y":50,"id":ID}"#
            for id in 2...3 { #expect(try alice.ack(spawn.replacingOccurrences(of: "ID", with: "\(id)"), id: id) != nil) }
            #expect(try alice.error(spawn.replacingOccurrences(of: "ID", with: "4"), id: .number("4"))?.code == .badValue,
                    "lab is full at 2 bodies")
            for id in 5...6 {
                #expect(try bob.ack(spawn.replacingOccurrences(of: "ID", with: "\(id)"), id: id) != nil, "main has its own 2")
            }
            withExtendedLifetime(server) {}
        }

        @Test func aRestingRoomKeepsItsKeepAlivesAfterHeldSteps() throws {
            // A room at rest is left alone by the beat until its keep-alive; held steps move its tick far past
            // the last keep-alive, and after `resume` the keep-alives still come, ticks strictly increasing.
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(client.nextSnapshot(timeout: 5) { $0.paused }, "the empty room rests")
            #expect(try client.ack(#"{"type":"pause","id":1}"#, id: 1) != nil)
            let stepped = try #require(try client.step(300, id: 2))
            #expect(try client.ack(#"{"type":"resume","id":3}"#, id: 3) != nil)
            var ticks: [UInt64] = []
            while ticks.count < 3, let snapshot = client.nextSnapshot(timeout: 5, where: { !$0.held }) { ticks.append(snapshot.tick) }
            #expect(ticks.count == 3, "keep-alives after resume: \(ticks)")
            #expect(ticks.first.map { $0 > stepped.tick } == true)
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 }, "\(ticks)")
            withExtendedLifetime(server) {}
        }

        @Test func tickFollowsTheNewRoomsClockAfterAJoin() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let alice = try server.connect()
            _ = alice.join()
            _ = try #require(try alice.step(100, id: 1))
            let mainTick = try #require(try alice.currentTick())
            #expect(mainTick == 100)
            let lab = try alice.joinRoom("lab", id: 2)
            guard case .snapshot(let state)? = lab.state else { Issue.record("no state after join"); return }
            #expect(state.tick == 0, "a new held room has taken no tick")
            #expect(try alice.currentTick() == 0)
            withExtendedLifetime(server) {}
        }
    }
}
