import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// Mouse gestures on handles and items: dragging an attachment's anchor (seed recipe 2.4), the fling at
    /// the end of a drag, and what other clients do shown as notices.
    @Suite(.serialized) struct ClientHandlesTests {
        @Test(.timeLimit(.minutes(5))) func draggingTheAnchorMarkerMovesTheAnchorAndTheItemFollows() throws {
            let session = try ClientSession(serverArguments: ["--scene", "attachment"])
            let attachment = try #require(session.scene?.attachments.first)
            let anchor = try #require(attachment.anchor)
            let start = try #require(session.control.nextSnapshot()?.bodies.first { $0.id == attachment.body })
            let (column, row) = ClientSession.cell(x: anchor.x, y: anchor.y)
            // The marker is drawn where the anchor is: an `o` in reverse video.
            #expect(session.client.waitForScreen { $0.text(row: row).contains("o") })
            session.client.type(ClientSession.mouse("press", column: column, row: row))
            for step in 1...15 { session.client.type(ClientSession.mouse("motion", column: column + step, row: row)) }
            session.client.type(ClientSession.mouse("release", column: column + 15, row: row))
            // The last cell's centre is 150 pt to the right of the anchor's cell centre.
            let moved = session.control.waitFor(timeout: 5) { message in
                guard case let .scene(scene) = message, let x = scene.attachments.first?.anchor?.x else { return false }
                return x > anchor.x + 140
            }
            #expect(moved != nil)
            let followed = session.control.nextSnapshot(timeout: 5) { snapshot in
                (snapshot.bodies.first { $0.id == attachment.body }?.x ?? 0) > start.x + 80
            }
            #expect(followed != nil, "the item did not swing after its anchor")
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func releasingAMovingDragFlingsTheItem() throws {
            var body = 0
            let session = try ClientSession { control in body = try ClientSession.box(control) }
            session.client.type(ClientSession.mouse("press", column: 50, row: 15))
            // A quick stroke to the right: 20 pt every 15 ms (about 1300 pt/s), released while still moving (the
            // release goes out with the last motion, so no pause of this machine's can make the hand look still).
            // The pauses pace the hand; they synchronise nothing.
            for step in 1...5 {
                session.client.type(ClientSession.mouse("motion", column: 50 + 2 * step, row: 15))
                usleep(15_000)
            }
            session.client.type(ClientSession.mouse("motion", column: 62, row: 15) + ClientSession.mouse("release", column: 62, row: 15))
            // The client measures the hand with its own clock, so how fast the fling is depends on how promptly
            // this machine delivered the motion reports: 500 pt/s is judged under `make soak` (DYN_TIMING=1).
            // Here, a count and a direction: the release sent one `velocity` command (the fling), and the item
            // leaves the drag moving right faster than the client's fling threshold.
            let fast = Reliability.measuresTiming ? 500 : 30.0
            let flung = session.control.nextSnapshot(timeout: 5) { snapshot in
                snapshot.drags.isEmpty && (snapshot.bodies.first { $0.id == body }?.vx ?? 0) > fast
            }
            if let http = session.server.httpPort {
                #expect(try MetricsScrape.fetch(port: http).value(#"dyn_commands_total{type="velocity"}"#) == 1, "the release flings once")
            }
            #expect(flung != nil, "no fast item after the release")
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func noticesFromASecondClientAppearAboveTheStatusLine() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            #expect(try session.control.ack(.hello(name: "bob", token: nil, protocolVersion: 1), id: 1) != nil)
            #expect(try session.control.ack(.scene(name: "snap"), id: 2) != nil)
            #expect(session.client.waitForScreen { $0.contains("> bob loaded snap") }, "\(session.client.screen.text)")
            #expect(try session.control.ack(.collision(mode: .items), id: 3) != nil)
            #expect(session.client.waitForScreen { $0.contains("> bob collision mode items") })
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func kSubscribesToContactsAndSaysSo() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            session.client.type("k")
            #expect(session.client.waitForScreen { $0.contains("contact flashes on") }, "\(session.client.screen.text)")
            session.client.type("k")
            #expect(session.client.waitForScreen { $0.contains("contact flashes off") })
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func fPlacesAFieldAtTheCursorAndAgainCyclesItsKind() throws {
            let session = try ClientSession()
            session.client.type("f")
            let first = try #require(session.control.waitFor(timeout: 5) { if case let .scene(scene) = $0 { !scene.fields.isEmpty } else { false } })
            guard case let .scene(placed) = first, let field = placed.fields.first else { return }
            #expect(field.kind == .linearGravity)
            #expect(field.x == 400 && field.y == 300)
            #expect(field.region.shape == .radius(120))
            // The glyph of its kind is drawn where it is (cell 50, 15).
            #expect(session.client.waitForScreen { $0.text(row: 15).contains("G") }, "\(session.client.screen.text)")
            session.client.type("f")
            let next = session.control.waitFor(timeout: 5) { message in
                guard case let .scene(scene) = message else { return false }
                return scene.fields.map(\.kind) == [.radialGravity]
            }
            #expect(next != nil, "the second f did not replace the field with the next kind")
            session.quit()
        }

        @Test(.timeLimit(.minutes(5))) func draggingAFieldGlyphMovesTheField() throws {
            var fieldID = 0
            let session = try ClientSession { control in
                let fields = try #require(try control.ack(.field(kind: .vortex, FieldParameters(x: 200, y: 150, region: FieldRegionSpec(.radius(80)))), id: 904))
                fieldID = try #require(fields.first { $0.0 == "field" }?.1.number.map { Int($0) })
            }
            let (column, row) = ClientSession.cell(x: 200, y: 150)
            #expect(session.client.waitForScreen { $0.text(row: row).contains("@") }, "\(session.client.screen.text)")
            session.client.type(ClientSession.mouse("press", column: column, row: row))
            for step in 1...10 { session.client.type(ClientSession.mouse("motion", column: column + step, row: row)) }
            session.client.type(ClientSession.mouse("release", column: column + 10, row: row))
            // Cell (40, 7) is world (305, 150).
            let moved = session.control.waitFor(timeout: 5) { message in
                guard case let .scene(scene) = message else { return false }
                return scene.fields.contains { $0.id == fieldID && $0.x == 305 && $0.y == 150 }
            }
            #expect(moved != nil)
            session.quit()
        }
    }
}
