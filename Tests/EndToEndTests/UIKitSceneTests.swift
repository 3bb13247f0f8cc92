import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The scenes `fields`, `joints` and `group` (README, docs/UIKIT.md): what they list, and that it acts.
    @Suite(.serialized)
    struct UIKitSceneTests {
        @Test(.timeLimit(.minutes(5))) func fieldsSceneHasAWellAndAVortexThatMoveItsItems() throws {
            let server = try ServerProcess(["--scene", "fields", "--held"])
            let client = try server.connect()
            let (_, scene, start) = client.join()
            let s = try #require(scene), first = try #require(start)
            #expect(s.fields.map(\.kind) == [.radialGravity, .vortex])
            #expect(s.bodies.count == 7)
            let later = try #require(try client.step(30, id: 1))
            let well = try #require(s.fields.first)
            // The ball that started 150 pt right of the well moved toward it.
            let ball = try #require(first.bodies.first { abs($0.x - (well.x + 150)) < 0.5 && abs($0.y - well.y) < 0.5 })
            let moved = try #require(later.body(ball.id))
            #expect(moved.x < ball.x - 5, "ball \(ball) -> \(moved)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func jointsSceneListsOneAttachmentOfEachKindEachMovable() throws {
            let server = try ServerProcess(["--scene", "joints", "--held"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            #expect(scene.attachments.map(\.kind) == [.fixed, .sliding, .pin, .limit])
            #expect(scene.attachments.allSatisfy { $0.id != nil })
            let pin = try #require(scene.attachments.first { $0.kind == .pin })
            #expect(pin.range == ValueRange(-0.8, 0.8) && pin.frictionTorque == 0.3)
            for attachment in scene.attachments {
                guard let anchor = attachment.anchor, let id = attachment.id else { continue }
                #expect(try client.ack(.anchor(attachment: id, x: anchor.x + 5, y: anchor.y), id: 1) != nil, "\(attachment.kind)")
            }
            let after = try #require(try client.step(60, id: 2))
            #expect(after.bodies.count == scene.bodies.count)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func groupSceneHasAConcaveCupThatCatchesTheBall() throws {
            let server = try ServerProcess(["--scene", "group", "--held"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            #expect(scene.groups.map(\.bodies.count) == [3, 2])
            let cup = try #require(scene.groups.first?.bodies.first)
            let ball = try #require(scene.bodies.last { $0.shape == .ellipse }?.id)
            let rested = try #require(try client.step(240, id: 1))
            let c = try #require(rested.body(cup)), b = try #require(rested.body(ball))
            #expect(abs(b.x - c.x) < 60 && b.y < c.y && b.y > c.y - 60, "the ball lies in the cup: (\(b.x), \(b.y)) over (\(c.x), \(c.y))")
            withExtendedLifetime(server) {}
        }
    }
}
