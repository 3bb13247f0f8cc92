import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `velocity`, `boundary`, `bounds` (docs/PROTOCOL.md), read back from held steps.
    @Suite(.serialized)
    struct WorldCommandTests {
        @Test(.timeLimit(.minutes(5))) func velocityAddsItsDeltaV() throws {
            let server = try ServerProcess(["--scene", "push", "--held"])
            let client = try server.connect()
            let body = try #require(client.join().scene?.bodies.first?.id)
            let start = try #require(try client.step(1, id: 1)?.body(body))
            let ack = try #require(try client.ack(.velocity(body: body, vx: 120, vy: -30, av: nil, add: true), id: 2))
            #expect(ack.number("vx") == 120 && ack.number("vy") == -30)
            _ = try #require(try client.ack(.velocity(body: body, vx: 30, vy: nil, av: nil, add: true), id: 3))
            let moved = try #require(try client.step(30, id: 4)?.body(body))
            #expect(moved.vx == 150 && moved.vy == -30, "velocity \(moved.vx), \(moved.vy)")
            #expect(abs(moved.x - (start.x + 75)) < 0.5, "0.5 s at 150 pt/s: \(start.x) -> \(moved.x)")
            #expect(abs(moved.y - (start.y - 15)) < 0.5)
            let set = try #require(try client.ack(.velocity(body: body, vx: 0, vy: nil, av: nil, add: false), id: 5))
            #expect(set.number("vx") == 0 && set.number("vy") == -30)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func aNewBoundaryStopsAFallingItem() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":40,"height":40,"x":400,"y":100}"#, id: 1)?.number("body")))
            let scenes = client.sceneCount
            _ = try #require(try client.ack(#"{"type":"boundary","id":2,"boundary":"shelf","points":[[300,300],[500,300]]}"#, id: 2))
            #expect(client.scene(after: scenes)?.boundaries == [BoundaryInfo(id: "shelf", points: [Point(300, 300), Point(500, 300)], closed: false)])
            let resting = try #require(try client.step(120, id: 3)?.body(body))
            #expect(abs(resting.y - 280) < 1.5, "rests on the shelf: y \(resting.y)")
            _ = try #require(try client.ack(#"{"type":"boundary","id":4,"boundary":"shelf","remove":true}"#, id: 4))
            let fallen = try #require(try client.step(120, id: 5)?.body(body))
            #expect(abs(fallen.y - 580) < 1.5, "falls to the floor once the shelf is gone: y \(fallen.y)")
            let missing = try #require(try client.error(#"{"type":"boundary","id":6,"boundary":"shelf","remove":true}"#, id: .int(6)))
            #expect(missing.code == .badValue && missing.message.contains("\"boundary\""))
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func boundsInsetsMoveTheFloorAndDisablingThemLetsItemsOut() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":40,"height":40,"x":400,"y":300}"#, id: 1)?.number("body")))
            let scenes = client.sceneCount
            _ = try #require(try client.ack(.bounds(enabled: nil, insets: BoundsInsets(top: 0, left: 0, bottom: 100, right: 0)), id: 2))
            #expect(client.scene(after: scenes)?.bounds == BoundsInfo(enabled: true, insets: BoundsInsets(top: 0, left: 0, bottom: 100, right: 0)))
            let resting = try #require(try client.step(90, id: 3)?.body(body))
            #expect(abs(resting.y - 480) < 1.5, "rests on the inset floor: y \(resting.y)")
            _ = try #require(try client.ack(.bounds(enabled: false, insets: nil), id: 4))
            let gone = try #require(try client.step(90, id: 5)?.body(body))
            #expect(gone.y > 600, "falls out of a world without bounds: y \(gone.y)")
            let tooBig = try #require(try client.error(#"{"type":"bounds","id":6,"insets":{"top":400,"bottom":300}}"#, id: .int(6)))
            #expect(tooBig.code == .badValue && tooBig.message.contains("insets"))
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func velocityOfAnUnknownBodyIsUnknownBody() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = client.join()
            #expect(try client.error(#"{"type":"velocity","id":1,"body":42,"vx":1}"#, id: .int(1))?.code == .unknownBody)
            withExtendedLifetime(server) {}
        }
    }
}
