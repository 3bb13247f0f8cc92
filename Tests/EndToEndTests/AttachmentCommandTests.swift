import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `attach`, `anchor`, `detach` (docs/PROTOCOL.md), read back from held steps.
    @Suite(.serialized)
    struct AttachmentCommandTests {
        /// Seed recipe 2.4: the pan gesture moves the attachment's anchor and the item follows along the rod.
        @Test(.timeLimit(.minutes(5))) func movingTheAnchorDragsTheItemAlongTheRod() throws {
            let server = try ServerProcess(["--scene", "attachment", "--held"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let rod = try #require(scene.attachments.first)
            let id = try #require(rod.id, "scene attachments carry their id")
            #expect(rod.kind == .distance)
            let anchor = try #require(rod.anchor)
            let settled = try #require(try client.step(60, id: 1)?.body(rod.body))
            #expect(abs(distance(settled.world(rod.offset), anchor) - rod.length) < 1.5)

            let scenes = client.sceneCount
            let moved = Point(anchor.x + 200, anchor.y)
            _ = try #require(try client.ack(.anchor(attachment: id, x: moved.x, y: moved.y), id: 2))
            #expect(client.scene(after: scenes)?.attachments.first?.anchor == moved)
            // The item swings about the moved anchor (a rod pendulum with no resistance keeps swinging, and in
            // this 800 pt room it strikes the right wall), so where it is at one instant depends on the phase:
            // sample it every 10 steps for 1.5 s and check how far right it got and that the rod held throughout.
            // The rod is a soft constraint: while the item swings hard and strikes the wall it gives a little
            // (under 2% of its length), and it is back at its length once the swing calms.
            var furthest = -Double.infinity
            var last = settled
            for k in 0..<9 {
                last = try #require(try client.step(10, id: 3 + k)?.body(rod.body))
                furthest = max(furthest, last.x)
                #expect(abs(distance(last.world(rod.offset), moved) - rod.length) < 3, "near the rod's length")
            }
            #expect(abs(distance(last.world(rod.offset), moved) - rod.length) < 1.5, "at the rod's length")
            #expect(furthest > settled.x + 150, "the item followed the anchor: x \(settled.x) -> at most \(furthest)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func attachCreatesAnAttachmentListedWithItsIDThatDetachRemoves() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            let body = try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":40,"height":40,"x":400,"y":300}"#, id: 1)?.number("body"))
            let scenes = client.sceneCount
            let ack = try #require(try client.ack(#"{"type":"attach","id":2,"body":\#(Int(body)),"anchor":{"x":400,"y":100},"kind":"limit","length":250}"#, id: 2))
            let attachment = try #require(ack.number("attachment"))
            let listed = try #require(client.scene(after: scenes)?.attachments.first)
            #expect(listed.id == Int(attachment) && listed.kind == .limit && listed.length == 250)
            // The rope holds the falling item 250 pt under the anchor (its top edge is 20 pt above the center).
            let hanging = try #require(try client.step(120, id: 3)?.body(Int(body)))
            #expect(abs(hanging.y - 350) < 2, "hangs at \(hanging.y)")
            let detached = client.sceneCount
            _ = try #require(try client.ack(.detach(attachment: Int(attachment)), id: 4))
            #expect(client.scene(after: detached)?.attachments == [])
            let fallen = try #require(try client.step(120, id: 5)?.body(Int(body)))
            #expect(fallen.y > 570, "falls to the floor once detached: \(fallen.y)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func pinJoinsTwoItemsAtOnePoint() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":20,"height":20,"x":370,"y":100,"anchored":true}"#, id: 1))
            let bar = try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":120,"height":20,"x":460,"y":100}"#, id: 2)?.number("body"))
            let ack = try #require(try client.ack(#"{"type":"attach","id":3,"body":\#(Int(bar)),"to_body":1,"kind":"pin","point":{"x":400,"y":100}}"#, id: 3))
            #expect(ack.number("attachment") != nil)
            let swung = try #require(try client.step(40, id: 4)?.body(Int(bar)))
            // The bar's end stays on the pin while it swings down.
            #expect(abs(distance(swung.world(Point(-60, 0)), Point(400, 100))) < 1.5)
            #expect(swung.y > 130, "it swung down: y \(swung.y)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func slidingKeepsTheItemOnItsRailWithinRangeAndMovesWithItsAnchor() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            let body = Int(try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":40,"height":40,"x":300,"y":200}"#, id: 1)?.number("body")))
            let scenes = client.sceneCount
            let ack = try #require(try client.ack(#"{"type":"attach","id":2,"body":\#(body),"anchor":{"x":300,"y":200},"kind":"sliding","axis":{"dx":1,"dy":1},"range":[-50,100]}"#, id: 2))
            let id = Int(try #require(ack.number("attachment")))
            let listed = try #require(client.scene(after: scenes)?.attachments.first)
            #expect(listed.id == id && listed.kind == .sliding && listed.range == ValueRange(-50, 100) && listed.anchor == Point(300, 200))
            // Gravity slides it down the 45° rail to the end of its range: 100 pt along (1, 1)/√2.
            let end = try #require(try client.step(120, id: 3)?.body(body))
            #expect(abs(end.x - (300 + 100 / 2.0.squareRoot())) < 1.5 && abs(end.y - (200 + 100 / 2.0.squareRoot())) < 1.5,
                    "(\(end.x), \(end.y))")
            _ = try #require(try client.ack(.anchor(attachment: id, x: 400, y: 200), id: 4))
            let moved = try #require(try client.step(60, id: 5)?.body(body))
            #expect(abs(moved.x - (400 + 100 / 2.0.squareRoot())) < 1.5, "the rail moved with its anchor: x \(moved.x)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func fixedWeldsTwoItemsAndPinRangeStopsASwing() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            let wall = Int(try #require(try client.ack(#"{"type":"spawn","id":1,"shape":"rect","width":40,"height":200,"x":200,"y":300,"anchored":true}"#, id: 1)?.number("body")))
            let beam = Int(try #require(try client.ack(#"{"type":"spawn","id":2,"shape":"rect","width":200,"height":20,"x":320,"y":300}"#, id: 2)?.number("body")))
            _ = try #require(try client.ack(#"{"type":"attach","id":3,"body":\#(beam),"to_body":\#(wall),"kind":"fixed"}"#, id: 3))
            let bar = Int(try #require(try client.ack(#"{"type":"spawn","id":4,"shape":"rect","width":160,"height":20,"x":580,"y":100}"#, id: 4)?.number("body")))
            let scenes = client.sceneCount
            _ = try #require(try client.ack(#"{"type":"attach","id":5,"body":\#(bar),"anchor":{"x":500,"y":100},"kind":"pin","range":[-0.5,0.5],"friction_torque":0.5}"#, id: 5))
            let pin = try #require(client.scene(after: scenes)?.attachments.last)
            #expect(pin.kind == .pin && pin.point == Point(500, 100) && pin.frictionTorque == 0.5 && pin.range == ValueRange(-0.5, 0.5))
            let after = try #require(try client.step(120, id: 6))
            let b = try #require(after.body(beam)), p = try #require(after.body(bar))
            #expect(abs(b.angle) < 0.02 && abs(b.y - 300) < 1.5, "the welded beam holds: y \(b.y), angle \(b.angle)")
            #expect(abs(p.angle - 0.5) < 0.03, "the pinned bar stops at its range: \(p.angle)")
            #expect(distance(p.world(Point(-80, 0)), Point(500, 100)) < 1.5)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func anchorDetachAndAttachAnswerUnknownIDsWithTheFieldsName() throws {
            let server = try ServerProcess(["--scene", "default"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let spring = try #require(scene.attachments.first { $0.toBody != nil }?.id)
            let a = try #require(try client.error(#"{"type":"anchor","id":1,"attachment":99999,"x":1,"y":2}"#, id: .int(1)))
            #expect(a.code == .badValue && a.message.contains("\"attachment\""))
            let b = try #require(try client.error(#"{"type":"anchor","id":2,"attachment":\#(spring),"x":1,"y":2}"#, id: .int(2)))
            #expect(b.code == .badValue && b.message.contains("no anchor"))
            let c = try #require(try client.error(#"{"type":"detach","id":3,"attachment":99999}"#, id: .int(3)))
            #expect(c.code == .badValue && c.message.contains("\"attachment\""))
            let d = try #require(try client.error(#"{"type":"attach","id":4,"body":99999,"anchor":{"x":1,"y":2}}"#, id: .int(4)))
            #expect(d.code == .unknownBody)
            let first = try #require(scene.bodies.first?.id)
            let e = try #require(try client.error(#"{"type":"attach","id":5,"body":\#(first),"to_body":99999}"#, id: .int(5)))
            #expect(e.code == .unknownBody && e.message.contains("to_body"))
            withExtendedLifetime(server) {}
        }
    }
}
