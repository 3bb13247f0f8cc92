import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `drag` begin / move / end on the `push` scene (one 80 x 80 square at (400, 300), no gravity), watched
    /// by a second client.
    @Suite(.serialized)
    struct DragTests {
        @Test(.timeLimit(.minutes(5))) func grabPointFollowsTheMovedAnchorAndOtherClientsSeeTheDrag() throws {
            let server = try ServerProcess(["--scene", "push"])
            let dragger = try server.connect(), watcher = try server.connect()
            let draggerID = try #require(dragger.join().welcome?.client)
            let body = try #require(watcher.join().scene?.bodies.first?.id)

            // Grab 10 right and 10 up of the centre.
            let begin = try #require(try dragger.ack(#"{"type":"drag","id":1,"phase":"begin","x":410,"y":290}"#, id: 1))
            #expect(begin.number("body") == Double(body))
            let seen = try #require(watcher.nextSnapshot { !$0.drags.isEmpty })
            #expect(seen.drags.count == 1)
            #expect(seen.drags.first?.client == draggerID)
            #expect(seen.drags.first?.body == body)
            #expect(seen.drags.first.map { Point($0.x, $0.y) } == Point(410, 290))

            // A pan gesture: the anchor moves in steps to (550, 200).
            for (step, point) in [(450, 260), (500, 230), (550, 200)].enumerated() {
                let id = 10 + step
                _ = try #require(try dragger.ack(#"{"type":"drag","id":\#(id),"phase":"move","x":\#(point.0),"y":\#(point.1)}"#, id: id))
            }
            let last = try #require(try watcher.snapshotsAfterNow(for: 1.5).last)
            let drag = try #require(last.drags.first)
            #expect(Point(drag.x, drag.y) == Point(550, 200))
            let state = try #require(last.body(body))
            let grab = Kinematics.worldPoint(of: state, offset: Point(10, -10))
            let gap = Kinematics.distance(grab, Point(550, 200))
            #expect(gap < 3, "grab point \(grab) is \(gap) pt from the anchor")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func dragEndRemovesTheDragFromSnapshots() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            _ = try #require(client.join().scene)
            _ = try #require(try client.ack(#"{"type":"drag","id":1,"phase":"begin","x":400,"y":300}"#, id: 1))
            #expect(client.nextSnapshot { !$0.drags.isEmpty } != nil)
            let end = try #require(try client.ack(#"{"type":"drag","id":2,"phase":"end"}"#, id: 2))
            #expect(end.number("body") != nil)
            let after = try client.snapshotsAfterNow(for: 0.5)
            #expect(!after.isEmpty)
            #expect(after.allSatisfy { $0.drags.isEmpty })
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func dragIsReleasedWhenItsClientResetsTheConnection() throws {
            let server = try ServerProcess(["--scene", "push"])
            let dragger = try server.connect(), watcher = try server.connect()
            let draggerID = try #require(dragger.join().welcome?.client)
            _ = try #require(watcher.join().scene)
            _ = try #require(try dragger.ack(#"{"type":"drag","id":1,"phase":"begin","x":400,"y":300}"#, id: 1))
            _ = try #require(try dragger.ack(#"{"type":"drag","id":2,"phase":"move","x":600,"y":300}"#, id: 2))
            #expect(watcher.nextSnapshot { $0.drags.first?.client == draggerID } != nil)

            dragger.reset()
            let released = watcher.nextSnapshot(timeout: 5) { $0.drags.isEmpty }
            #expect(released != nil, "the vanished client's drag is gone")
            let later = try watcher.snapshotsAfterNow(for: 0.3)
            #expect(!later.isEmpty && later.allSatisfy { $0.drags.isEmpty }, "\(later.count) snapshots, all without the drag")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func dragEndsWhenItsItemIsRemoved() throws {
            let server = try ServerProcess(["--scene", "push"])
            let dragger = try server.connect(), remover = try server.connect()
            let body = try #require(dragger.join().scene?.bodies.first?.id)
            _ = try #require(remover.join().scene)
            _ = try #require(try dragger.ack(#"{"type":"drag","id":1,"phase":"begin","x":400,"y":300}"#, id: 1))
            #expect(remover.nextSnapshot { !$0.drags.isEmpty } != nil)
            _ = try #require(try remover.ack(#"{"type":"remove","id":2,"body":\#(body)}"#, id: 2))
            let after = try remover.snapshotsAfterNow(for: 0.3)
            #expect(!after.isEmpty && after.allSatisfy { $0.drags.isEmpty && $0.bodies.isEmpty })
            let move = try dragger.error(#"{"type":"drag","id":3,"phase":"move","x":500,"y":300}"#, id: .int(3))
            #expect(move?.code == .notDragging)
            withExtendedLifetime(server) {}
        }
    }
}
