import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// A held world that changes shape shows it at once (docs/PROTOCOL.md, `pause`): after every structural
    /// change every client of the room gets the new `scene` and then a `held:true` snapshot (a keyframe for
    /// compact clients) with the new poses; otherwise still nothing until the next `step`.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct HeldStructureTests {
        @Test func sceneLoadedWhileHeldReachesEveryClientAsSceneThenHeldSnapshotOfExactlyItsIDs() throws {
            let server = try ServerProcess(["--scene", "default", "--no-http"])
            let loader = try server.connect(), other = try server.connect(), compact = try server.connect()
            for client in [loader, other, compact] { _ = try #require(client.join().scene) }
            #expect(try compact.ack(#"{"type":"subscribe","id":1,"snapshots":"compact"}"#, id: 1) != nil)
            #expect(try loader.ack(.pause, id: 2) != nil)
            let heldTick = try #require(other.nextSnapshot { $0.held }?.tick)

            let before = compact.sceneCount, otherBefore = other.sceneCount
            try loader.send(ClientMessage(id: .int(3), .scene(name: "snap")))
            // The loader: the scene, the held snapshot, then the ack.
            let answer = loader.readJoin(id: 3)
            #expect(answer.order == ["scene", "state", "ack"])
            let loaded = try #require(answer.scene)
            #expect(loaded.name == "snap")
            guard case .snapshot(let own)? = answer.state else {
                Issue.record("the loader got no snapshot after the scene")
                return
            }
            #expect(own.held && own.bodies.map(\.id) == loaded.bodies.map(\.id))
            #expect(own.tick == heldTick, "no tick passed: the world is still held")
            let seen = try #require(other.scene(after: otherBefore))
            #expect(seen.bodies.map(\.id) == loaded.bodies.map(\.id))
            let snapshot = try #require(other.nextSnapshot { $0.held }, "a held snapshot follows the scene")
            #expect(snapshot.bodies.map(\.id) == loaded.bodies.map(\.id))
            #expect(snapshot.tick == heldTick)
            let scene = try #require(compact.scene(after: before))
            let frame = try #require(compact.waitFor(timeout: 10) { if case .frame(let f) = $0 { f.held } else { false } })
            if case .frame(let f) = frame {
                #expect(f.isKeyframe)
                #expect(f.bodies.map(\.id) == scene.bodies.map(\.id))
            }
            // Still no keep-alives while held: nothing more arrives until the next step.
            #expect(other.snapshots(for: 1.5).isEmpty)
            withExtendedLifetime(server) {}
        }

        @Test func bodySpawnedWhileHeldAppearsAtItsPlaceAtOnce() throws {
            let server = try ServerProcess(["--held", "--scene", "empty", "--no-http"])
            let spawner = try server.connect(), watcher = try server.connect()
            _ = try #require(spawner.join().scene)
            _ = try #require(watcher.join().scene)
            let fields = try #require(try spawner.ack(
                #"{"type":"spawn","id":1,"shape":"rect","width":40,"height":20,"x":123,"y":234}"#, id: 1))
            let body = Int(try #require(fields.number("body")))
            let snapshot = try #require(watcher.nextSnapshot { $0.held && $0.body(body) != nil })
            let pose = try #require(snapshot.body(body))
            #expect([pose.x, pose.y, pose.angle] == [123, 234, 0])
            #expect(snapshot.tick == 0)
            withExtendedLifetime(server) {}
        }
    }
}
