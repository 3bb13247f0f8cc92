import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Idle unload and `--state-dir` (docs/PROTOCOL.md, Rooms): a room without clients for `--room-idle-s` is
    /// saved and unloaded, a join restores it with the same ids, poses and clock; `main` is never unloaded
    /// and is restored from the directory at start.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RoomStateTests {
        private func temporaryDirectory() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("dyn-rooms-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        @Test func anIdleRoomIsSavedUnloadedAndRestoredWithTheSameIdsAndPoses() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try ServerProcess(["--scene", "empty", "--held", "--state-dir", directory.path, "--room-idle-s", "0.3"])
            let httpPort = try #require(server.httpPort)
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.joinRoom("lab", #""scene":"default""#, id: 1).ack)
            let extra = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"ellipse","width":30,"height":30,"x":200,"y":100}"#, id: 2)?.number("body")))
            let before = try #require(try client.step(45, id: 3))
            let sceneBefore = try #require(client.lastScene)
            #expect(before.tick == 45)
            _ = try #require(try client.joinRoom("main", id: 4).ack)

            let unloaded = try waitUntil(timeout: 10) {
                try httpRooms(port: httpPort)?.first { $0.name == "lab" }?.loaded == false
            }
            #expect(unloaded, "lab unloads once it has had no client for 0.3 s")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("lab.json").path))
            #expect(try MetricsScrape.fetch(port: httpPort).value("dyn_rooms_unloaded_total") == 1)
            #expect(try MetricsScrape.fetch(port: httpPort).value("dyn_rooms") == 1)
            let listed = try #require(try httpRooms(port: httpPort)?.first { $0.name == "lab" })
            #expect(listed.bodies == sceneBefore.bodies.count && listed.clients == 0)

            let restored = try client.joinRoom("lab", id: 5)
            #expect(restored.created == false)
            let scene = try #require(restored.scene)
            #expect(scene.bodies.map(\.id) == sceneBefore.bodies.map(\.id), "same ids")
            #expect(scene.bodies.contains { $0.id == extra })
            guard case .snapshot(let after)? = restored.state else { Issue.record("no snapshot after the join"); return }
            #expect(after.tick == before.tick, "the room's clock continues")
            #expect(after.bodies.map(\.id) == before.bodies.map(\.id))
            for (a, b) in zip(after.bodies, before.bodies) {
                #expect(a.x == b.x && a.y == b.y && a.angle == b.angle, "body \(a.id) moved while unloaded")
            }
            // A spawn after the restore continues the room's id counter (ids are never reused).
            let next = Int(try #require(try client.ack(#"{"type":"spawn","id":6,"shape":"rect","width":10,"height":10,"x":50,"y":50}"#, id: 6)?.number("body")))
            #expect(next > extra)
            withExtendedLifetime(server) {}
        }

        @Test func mainIsNeverUnloadedAndAnUnsavedRoomIsForgotten() throws {
            let server = try ServerProcess(["--scene", "empty", "--room-idle-s", "0.2"])
            let httpPort = try #require(server.httpPort)
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.joinRoom("lab", id: 1).ack)
            _ = try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":10,"height":10,"x":50,"y":50}"#, id: 2))
            _ = try #require(try client.joinRoom("scratch", id: 3).ack)
            // main and lab now have no client; only lab may go (main never does).
            let gone = try waitUntil(timeout: 10) { try httpRooms(port: httpPort)?.contains { $0.name == "lab" } == false }
            #expect(gone, "without --state-dir an idle room is forgotten, not listed")
            #expect(try httpRooms(port: httpPort)?.first { $0.name == "main" }?.loaded == true)
            let again = try client.joinRoom("lab", id: 4)
            #expect(again.created == true && again.scene?.bodies.isEmpty == true, "a forgotten room starts afresh")
            withExtendedLifetime(server) {}
        }

        @Test func theStateDirKeepsEveryRoomAcrossARestart() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            var mainScene: SceneInfo?
            var labBodies: [Int] = []
            var labToken = ""
            do {
                let first = try ServerProcess(["--scene", "empty", "--held", "--state-dir", directory.path, "--admin-token", "A"])
                let client = try first.connect()
                _ = client.join()
                _ = try #require(try client.ack(.hello(name: "admin", token: "A", protocolVersion: 1), id: 9))
                _ = try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":30,"height":30,"x":100,"y":100}"#, id: 1))
                _ = try client.step(10, id: 2)
                mainScene = client.lastScene
                let lab = try client.joinRoom("lab", #""scene":"snap""#, id: 3)
                labBodies = try #require(lab.scene).bodies.map(\.id)
                labToken = try #require(lab.roomToken)
                first.signal(SIGTERM)
                #expect(first.waitForExit(timeout: 5) == 0)
            }
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("main.json").path))
            let second = try ServerProcess(["--scene", "default", "--held", "--state-dir", directory.path, "--admin-token", "A"])
            let client = try second.connect()
            let joined = client.join()
            #expect(joined.scene?.name == "empty" && joined.scene?.bodies.map(\.id) == mainScene?.bodies.map(\.id),
                    "main comes back from DIR/main.json, not --scene")
            #expect(joined.snapshot?.tick == 10)
            let listed = try #require(try client.roomList(id: 1)?.first { $0.name == "lab" })
            #expect(listed.loaded == false && listed.scene == "snap")
            let lab = try client.joinRoom("lab", id: 2)
            #expect(lab.created == false && lab.scene?.name == "snap" && lab.scene?.bodies.map(\.id) == labBodies)
            #expect(lab.admin == false)
            let holder = try client.joinRoom("lab", #""room_token":"\#(labToken)""#, id: 3)
            #expect(holder.admin == true, "the creator's room_token still works after the restart")
            withExtendedLifetime(second) {}
        }
    }
}
