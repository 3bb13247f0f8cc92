import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `spawn`, `set`, `collision`, `remove` and `scene`: each change shows in the next `scene` (and in
    /// snapshots), and every other client is told too.
    @Suite(.serialized)
    struct StructureCommandTests {
        @Test(.timeLimit(.minutes(5))) func spawnAcksTheNewBodyWhichAppearsInSceneAndSnapshots() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect(), other = try server.connect()
            #expect(client.join().scene?.bodies == [])
            #expect(other.join().scene?.bodies == [])
            let scenes = client.sceneCount
            let fields = try #require(try client.ack(
                ##"{"type":"spawn","id":1,"shape":"ellipse","width":40,"height":40,"x":200,"y":100,"elasticity":0.5,"color":"#12AB34"}"##, id: 1))
            let body = Int(try #require(fields.number("body")))
            let scene = try #require(client.scene(after: scenes))
            let info = try #require(scene.bodies.first { $0.id == body })
            #expect(info.shape == .ellipse && info.width == 40 && info.height == 40)
            #expect(info.elasticity == 0.5 && info.density == 1 && info.color == "#12ab34")
            #expect(other.nextScene()?.bodies.map(\.id) == [body])
            let snapshot = try #require(other.nextSnapshot { $0.body(body) != nil })
            #expect(abs((snapshot.body(body)?.x ?? 0) - 200) < 1)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func setChangesPropertiesShownInTheNextScene() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let before = try #require(client.join().scene?.bodies.first)
            #expect(before.elasticity == 0 && before.friction == 0 && before.allowsRotation && !before.anchored)
            let scenes = client.sceneCount
            _ = try #require(try client.ack(
                #"{"type":"set","id":1,"body":\#(before.id),"elasticity":0.75,"friction":0.25,"density":2,"resistance":3,"angular_resistance":4,"allows_rotation":false,"anchored":true}"#, id: 1))
            let after = try #require(client.scene(after: scenes)?.bodies.first { $0.id == before.id })
            #expect(after.elasticity == 0.75 && after.friction == 0.25 && after.density == 2)
            #expect(after.resistance == 3 && after.angularResistance == 4)
            #expect(after.allowsRotation == false && after.anchored == true)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func collisionModeShowsInTheNextScene() throws {
            let server = try ServerProcess(["--scene", "collision"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            #expect(scene.collisionMode == .everything)
            #expect(scene.boundaries.map(\.id) == ["line"])
            for (id, mode) in [(1, "items"), (2, "boundaries"), (3, "everything")] {
                let scenes = client.sceneCount
                _ = try #require(try client.ack(#"{"type":"collision","id":\#(id),"mode":"\#(mode)"}"#, id: id))
                #expect(client.scene(after: scenes)?.collisionMode.rawValue == mode)
            }
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func removedBodyLeavesSceneAndSnapshotsThenIsUnknown() throws {
            let server = try ServerProcess(["--scene", "gravity"])
            let client = try server.connect()
            let bodies = try #require(client.join().scene?.bodies.map(\.id))
            #expect(bodies.count == 5)
            let gone = bodies[2]
            let scenes = client.sceneCount
            let fields = try #require(try client.ack(#"{"type":"remove","id":1,"body":\#(gone)}"#, id: 1))
            #expect(fields.number("body") == Double(gone))
            #expect(client.scene(after: scenes)?.bodies.map(\.id) == bodies.filter { $0 != gone })
            let after = try client.snapshotsAfterNow(for: 0.3)
            #expect(!after.isEmpty && after.allSatisfy { $0.body(gone) == nil && $0.bodies.count == 4 })
            let again = try client.error(#"{"type":"remove","id":2,"body":\#(gone)}"#, id: .int(2))
            #expect(again?.code == .unknownBody)
            let tap = try client.error(#"{"type":"tap","id":3,"x":1,"y":1,"body":\#(gone)}"#, id: .int(3))
            #expect(tap?.code == .unknownBody)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func sceneLoadSendsTheNewSceneWithIdsNeverReused() throws {
            let server = try ServerProcess(["--scene", "gravity"])
            let client = try server.connect(), other = try server.connect()
            let first = try #require(client.join().scene)
            _ = other.join()
            var seen = Set(first.bodies.map(\.id))
            for (id, name) in [(1, "push"), (2, "gravity"), (3, "elasticity")] {
                let scenes = client.sceneCount
                let fields = try #require(try client.ack(#"{"type":"scene","id":\#(id),"name":"\#(name)"}"#, id: id))
                #expect(fields.first { $0.0 == "scene" }?.1.string == name)
                let scene = try #require(client.scene(after: scenes))
                #expect(scene.name == name)
                #expect(!scene.bodies.isEmpty)
                let ids = Set(scene.bodies.map(\.id))
                #expect(ids.isDisjoint(with: seen), "\(name): ids \(ids.sorted()) reuse \(ids.intersection(seen).sorted())")
                #expect(try #require(ids.min()) > (seen.max() ?? -1), "\(name): new ids above every earlier one")
                seen.formUnion(ids)
                #expect(other.nextScene()?.name == name)
            }
            let unknown = try client.error(#"{"type":"scene","id":9,"name":"nowhere"}"#, id: .int(9))
            #expect(unknown?.code == .badValue)
            withExtendedLifetime(server) {}
        }
    }
}
