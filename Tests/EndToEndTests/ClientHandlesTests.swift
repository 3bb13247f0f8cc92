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
        @Test func draggingTheAnchorMarkerMovesTheAnchorAndTheItemFollows() throws {
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

        @Test func releasingAMovingDragFlingsTheItem() throws {
            var body = 0
            let session = try ClientSession { control in body = try ClientSession.box(control) }
            session.client.type(ClientSession.mouse("press", column: 50, row: 15))
            // A quick stroke to the right: 20 pt every 15 ms (about 1300 pt/s), released while still moving.
            // The pauses pace the hand; they synchronise nothing.
            for step in 1...6 {
                session.client.type(ClientSession.mouse("motion", column: 50 + 2 * step, row: 15))
                usleep(15_000)
            }
            session.client.type(ClientSession.mouse("release", column: 62, row: 15))
            let flung = session.control.nextSnapshot(timeout: 5) { snapshot in
                snapshot.drags.isEmpty && (snapshot.bodies.first { $0.id == body }?.vx ?? 0) > 500
            }
            #expect(flung != nil, "no fast item after the release")
            session.quit()
        }

        @Test func noticesFromASecondClientAppearAboveTheStatusLine() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            #expect(try session.control.ack(.hello(name: "bob", token: nil, protocolVersion: 1), id: 1) != nil)
            #expect(try session.control.ack(.scene(name: "snap"), id: 2) != nil)
            #expect(session.client.waitForScreen { $0.contains("> bob loaded snap") }, "\(session.client.screen.text)")
            #expect(try session.control.ack(.collision(mode: .items), id: 3) != nil)
            #expect(session.client.waitForScreen { $0.contains("> bob collision mode items") })
            session.quit()
        }
    }
}
