import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The page on packed frames (its default, docs/PROTOCOL.md "packed" and "The browser client") draws the
    /// same world as a page on full snapshots: a real Chromium each, one held server stepped by an observer.
    @Suite(.serialized, .timeLimit(.minutes(2)), RequiredTool.chromium.trait)
    struct PagePackedTests {
        /// The poses the page draws from (its last received state): [id, x, y, angle] by id.
        private func drawnPoses(_ page: PageSession) throws -> [Int: [Double]] {
            let text = page.text("JSON.stringify([...history[history.length - 1].poses].map(([id, p]) => [id, p[0], p[1], p[2]]))")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Double]])
            return Dictionary(uniqueKeysWithValues: rows.map { (Int($0[0]), Array($0.dropFirst())) })
        }

        @Test func thePageOnPackedFramesDrawsWhatThePageOnFullSnapshotsDraws() throws {
            let server = try ServerProcess(["--scene", "default", "--held"])
            let packed = try PageSession(server: server)
            let full = try PageSession(server: server, path: "/?snapshots=full")
            // Move the world: a tap, then steps (each step sends the state to every page).
            let observer = packed.observer
            try observer.send(#"{"type":"tap","x":300,"y":300}"#)
            var last: Snapshot?
            for i in 0..<8 { try observer.send(#"{"type":"step","ticks":15,"id":\#(100 + i)}"#) }
            // Each step's snapshot comes before its ack: the last one before the last ack is the state now.
            while let message = observer.next(timeout: 10) {
                if case let .snapshot(s) = message { last = s }
                if case let .ack(id, _) = message, id == .int(107) { break }
            }
            let state = try #require(last)
            for page in [packed, full] {
                #expect(Reliability.eventually(timeout: 10) { page.text("String(dyn.lastTick)") == String(state.tick) },
                        "the page shows tick \(state.tick): \(page.text("String(dyn.lastTick)"))")
            }
            #expect(packed.text("String(dyn.packedFrames > 0)") == "true", "the default page decodes packed frames")
            #expect(full.text("String(dyn.packedFrames === undefined)") == "true", "?snapshots=full takes snapshots")
            let a = try drawnPoses(packed), b = try drawnPoses(full)
            #expect(a.count == state.bodies.count && Set(a.keys) == Set(b.keys))
            for (id, p) in b {
                let q = try #require(a[id])
                #expect(abs(p[0] - q[0]) <= 1.0 / 32 && abs(p[1] - q[1]) <= 1.0 / 32 && abs(p[2] - q[2]) <= 1e-4,
                        "body \(id): full \(p), packed \(q)")
            }
            // The same pixels where each item is: both pages fit the same world to the same viewport.
            #expect(packed.text("JSON.stringify(dyn.toScreen(0, 0))") == full.text("JSON.stringify(dyn.toScreen(0, 0))"))
            var moved = 0
            for body in state.bodies {
                let point = try packed.screen(body.x, body.y)
                // Each page paints on its own animation frame: the same pixels once both have painted this state.
                let same = Reliability.eventually(timeout: 5) {
                    ((try? packed.pixel(point.x, point.y)).map { "\($0)" }) == ((try? full.pixel(point.x, point.y)).map { "\($0)" })
                }
                let (p, q) = (try packed.pixel(point.x, point.y), try full.pixel(point.x, point.y))
                #expect(same, "body \(body.id) at \(point): packed \(p), full \(q)")
                if body.x != (packed.snapshot?.bodies.first { $0.id == body.id }?.x ?? body.x) { moved += 1 }
            }
            #expect(moved > 0, "the steps moved items")
            try packed.screenshot("page-packed")
            try full.screenshot("page-full")
        }
    }
}
