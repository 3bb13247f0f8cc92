import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// The drag echo measured through the real `dynbench link --delay-ms 75 --jitter-ms 0` (a 150 ms round
    /// trip), for the page in headless Chromium and for `dynclient` on a PTY: where the dragged box is drawn
    /// in the first frame after the pointer's last move, against the pointer and the server's pose, and the
    /// largest step the drawn box takes from the release until the server's pose has taken over
    /// (docs/ARCHITECTURE.md, "The page" and "The terminal client"). Each prints one JSON line;
    /// `scripts/drag-echo.sh` runs them. A measurement, so only under DYN_TIMING=1.
    @Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: Reliability.measuresTiming))
    struct DragEchoLinkMeasureTests {
        private static func line(_ fields: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }

        @Test(RequiredTool.chromium.trait) func thePage() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            let body = try ClientSession.box(control)
            let link = try DynbenchLink(target: try #require(server.httpPort))
            let page = try PageSession(server: server, httpPort: link.port)
            #expect(Reliability.eventually(timeout: 10) { page.text("JSON.stringify(dyn.serverPose(\(body)))").contains("\"x\":400") })
            _ = try page.evaluate("""
                window.trace = []; (function f() { const d = dyn.drawnPose(\(body)), s = dyn.serverPose(\(body));
                  if (d && s) trace.push([performance.now(), d.x, d.y, s.x, s.y]); requestAnimationFrame(f); })(); 1
                """)
            let start = try page.screen(400, 300), end = try page.screen(520, 300)
            try page.browser.mouse("mousePressed", x: start.x, y: start.y, held: true)
            for step in 1...10 {
                try page.browser.mouse("mouseMoved", x: start.x + (end.x - start.x) * Double(step) / 10, y: start.y, held: true)
                usleep(16_000)
            }
            let movedAt = try #require(try page.evaluate("performance.now()") as? Double)
            var first: [Double] = []
            #expect(Reliability.eventually(timeout: 5) {
                first = ((try? page.evaluate("JSON.stringify(trace.find(e => e[0] > \(movedAt)) || null)")) as? String)
                    .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Double] } ?? []
                return first.count == 5
            })
            for _ in 0..<6 {
                try page.browser.mouse("mouseMoved", x: end.x, y: end.y, held: true)
                usleep(20_000)
            }
            let releasedAt = try #require(try page.evaluate("performance.now()") as? Double)
            try page.browser.mouse("mouseReleased", x: end.x, y: end.y, held: false)
            #expect(Reliability.eventually(timeout: 10) { page.text("dyn.drawnPose(\(body)).echo") == "none" })
            let after = try #require(try page.evaluate("JSON.stringify(trace.filter(e => e[0] > \(releasedAt)).map(e => [e[1], e[2]]))") as? String)
            let points = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [[Double]])
            let steps = zip(points, points.dropFirst()).map { hypot($1[0] - $0[0], $1[1] - $0[1]) }
            let drawnX = first.count == 5 ? first[1] : .nan, serverX = first.count == 5 ? first[3] : .nan
            print(Self.line(["face": "page", "link": "dynbench link --delay-ms 75 --jitter-ms 0", "round_trip_ms": 150,
                             "pointer_x": 520, "first_frame_drawn_x": drawnX, "first_frame_server_x": serverX,
                             "drawn_off_pointer_pt": abs(drawnX - 520), "frames_after_release": points.count,
                             "largest_step_after_release_pt": steps.max() ?? 0]))
            #expect(abs(drawnX - 520) < 1.5)
            withExtendedLifetime((server, link)) {}
        }

        @Test func dynclient() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            _ = try ClientSession.box(control)
            let link = try DynbenchLink(target: server.port)
            let client = try PseudoTerminalClient(arguments: ["--port", String(link.port), "--name", "far"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            #expect(client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene empty |") })
            var before: Int?
            #expect(client.waitForScreen { screen in
                before = screen.leftmostDot(rows: 12..<18, columns: 11..<89)
                return before != nil
            })
            // The box's left edge in dot columns (5 pt each: a cell is 10 pt and two dots across), per frame.
            var edges: [Int] = []
            client.screen.onFrame = { screen in edges.append(screen.leftmostDot(rows: 12..<18, columns: 11..<89) ?? -1) }
            client.type(ClientSession.mouse("press", column: 50, row: 15))
            #expect(client.waitForScreen { _ in !edges.isEmpty })
            let framesBefore = edges.count
            client.type(ClientSession.mouse("motion", column: 60, row: 15))
            #expect(client.waitForScreen { _ in edges.count > framesBefore })
            let firstMoved = edges.count > framesBefore ? edges[framesBefore] - (before ?? 0) : -1
            client.drain(forMs: 400)
            let released = edges.count
            client.type(ClientSession.mouse("release", column: 60, row: 15))
            client.drain(forMs: 1500)
            let tail = Array(edges[max(0, released - 1)...])
            let steps = zip(tail, tail.dropFirst()).map { abs($1 - $0) }
            print(Self.line(["face": "dynclient", "link": "dynbench link --delay-ms 75 --jitter-ms 0", "round_trip_ms": 150,
                             "pointer_moved_pt": 100, "first_frame_moved_pt": firstMoved * 5,
                             "drawn_off_pointer_pt": abs(firstMoved * 5 - 100), "frames_after_release": tail.count - 1,
                             "largest_step_after_release_pt": (steps.max() ?? 0) * 5, "resolution_pt": 5]))
            #expect(abs(firstMoved - 20) <= 1)
            client.type("q")
            #expect(client.waitForExit() == 0)
            withExtendedLifetime((server, link)) {}
        }
    }
}
