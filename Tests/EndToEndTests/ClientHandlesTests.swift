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
            // The client times the hand with its own clock. Under `make test` that clock is the test's
            // (DYN_GESTURE_STEP_MS: every mouse report is 15 ms after the one before), so the stroke below has
            // one speed however late this machine delivered its reports; the client's real clock is judged
            // under `make soak` (DYN_TIMING=1), with the reports paced 15 ms apart.
            let realClock = Reliability.measuresTiming
            var body = 0
            let session = try ClientSession(environment: realClock ? [:] : ["DYN_GESTURE_STEP_MS": "15"]) { control in
                body = try ClientSession.box(control)
            }
            session.client.type(ClientSession.mouse("press", column: 50, row: 15))
            // A quick stroke to the right: 20 pt per report, released while still moving (the release goes out
            // with the last motion, so no pause of this machine's can make the hand look still).
            for step in 1...5 {
                session.client.type(ClientSession.mouse("motion", column: 50 + 2 * step, row: 15))
                if realClock { usleep(15_000) }  // paces the hand for the real clock; synchronises nothing
            }
            session.client.type(ClientSession.mouse("motion", column: 62, row: 15) + ClientSession.mouse("release", column: 62, row: 15))
            // On the test's clock the press is report 1 and the last motion report 7, 120 pt further right and
            // 90 ms later: the fling is exactly 120 / 0.090 = 1333 pt/s to the right (docs/PROTOCOL.md,
            // `velocity` sets it), and the item, free of gravity and contacts, keeps nearly all of it.
            let fast: ClosedRange<Double> = realClock ? 500...100_000 : 1320...1340
            var seen: [String] = []
            let flung = session.control.nextSnapshot(timeout: 5) { snapshot in
                guard snapshot.drags.isEmpty, let item = snapshot.bodies.first(where: { $0.id == body }) else { return false }
                seen.append("(\(item.vx), \(item.vy))")
                return fast.contains(item.vx) && abs(item.vy) < 1
            }
            if let http = session.server.httpPort {
                #expect(try MetricsScrape.fetch(port: http).value(#"dyn_commands_total{type="velocity"}"#) == 1, "the release flings once")
            }
            #expect(flung != nil, "no item flung right at \(fast) pt/s after the release; its velocities: \(seen.prefix(12))")
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
