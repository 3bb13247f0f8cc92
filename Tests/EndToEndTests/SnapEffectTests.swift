import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `snap` pulls an item to a point and settles it there (docs/UIKIT.md: within 2 pt and 0.05 rad in < 3 s).
    @Suite(.serialized)
    struct SnapEffectTests {
        @Test(.timeLimit(.minutes(5))) func snappedItemSettlesWithin2PointsOfThePointAndAngleZero() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let body = try #require(client.join().scene?.bodies.first?.id)
            // Turn it first so that settling at angle 0 is a real change.
            _ = try #require(try client.ack(#"{"type":"push","id":1,"body":\#(body),"angle":0,"magnitude":0.5,"mode":"instantaneous","offset":{"x":0,"y":30}}"#, id: 1))
            let scenes = client.sceneCount
            let fields = try #require(try client.ack(#"{"type":"snap","id":2,"body":\#(body),"x":200,"y":150,"damping":0.5}"#, id: 2))
            #expect(fields.number("body") == Double(body))
            let scene = try #require(client.scene(after: scenes))
            #expect(scene.snaps == [SnapInfo(body: body, point: Point(200, 150), damping: 0.5)])

            let start = try #require(client.nextSnapshot()?.time)
            let settled = client.nextSnapshot(timeout: 8) { s in
                guard let b = s.body(body) else { return false }
                return hypot(b.x - 200, b.y - 150) < 2 && abs(b.angle) < 0.05
            }
            let reached = try #require(settled, "never settled at (200, 150)")
            #expect(reached.time - start < 3, "settled after \(reached.time - start) s of simulated time")
            let later = try #require(client.lastSnapshot(after: 0.5)?.body(body))
            #expect(hypot(later.x - 200, later.y - 150) < 2, "stays there: (\(later.x), \(later.y))")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func snapWithActiveFalseRemovesTheSnap() throws {
            let server = try ServerProcess(["--scene", "snap"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let snap = try #require(scene.snaps.first)
            #expect(snap.point == Point(400, 300) && snap.damping == 0.5)
            let scenes = client.sceneCount
            _ = try #require(try client.ack(#"{"type":"snap","id":1,"body":\#(snap.body),"active":false}"#, id: 1))
            #expect(client.scene(after: scenes)?.snaps == [])
            withExtendedLifetime(server) {}
        }
    }
}
