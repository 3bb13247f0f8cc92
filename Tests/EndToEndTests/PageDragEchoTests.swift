import Foundation
import Testing

extension EndToEnd {
    /// The page's own drag through a delaying link (a loopback proxy in front of the HTTP port: 150 ms round
    /// trip), in a real headless Chromium: the dragged item is drawn under the pointer on the first frame
    /// after the move, while the server's pose is still where it was, and after the release it eases into
    /// the server's pose without jumping (docs/ARCHITECTURE.md, "The page").
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct PageDragEchoTests {
        @Test(RequiredTool.chromium.trait)
        func ownDragIsDrawnAtThePointerAtOnceAndEasesIntoTheServersPose() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let control = try server.connect()
            _ = control.join()
            let body = try ClientSession.box(control)
            let proxy = try ClientDelayProxy(serverPort: try #require(server.httpPort), oneWayMs: 75, jitterMs: 0)
            let page = try PageSession(server: server, httpPort: proxy.port)
            #expect(Reliability.eventually(timeout: 10) { page.text("JSON.stringify(dyn.serverPose(\(body)))").contains("\"x\":400") })
            // Every frame: the drawn pose, the server's, the echo's phase.
            _ = try page.evaluate("""
                window.trace = []; (function f() { const d = dyn.drawnPose(\(body)), s = dyn.serverPose(\(body));
                  if (d && s) trace.push([performance.now(), d.x, d.y, s.x, s.y, d.echo]); requestAnimationFrame(f); })(); 1
                """)
            let start = try page.screen(400, 300), end = try page.screen(520, 300)
            try page.browser.mouse("mousePressed", x: start.x, y: start.y, held: true)
            for step in 1...10 {
                let x = start.x + (end.x - start.x) * Double(step) / 10
                try page.browser.mouse("mouseMoved", x: x, y: start.y, held: true)
                usleep(16_000)
            }
            let movedAt = try #require(try page.evaluate("performance.now()") as? Double)
            // The first frame drawn after the last move: the box (grabbed at its centre) under the pointer,
            // while the server, a round trip away, has not moved it that far yet.
            var first: [Any] = []
            #expect(Reliability.eventually(timeout: 5) {
                first = ((try? page.evaluate("JSON.stringify(trace.find(e => e[0] > \(movedAt)) || null)")) as? String)
                    .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any] } ?? []
                return !first.isEmpty
            })
            let drawnX = first.count > 4 ? (first[1] as? Double ?? 0) : 0, serverX = first.count > 4 ? (first[3] as? Double ?? 0) : 0
            print("drag echo: first frame after the move drawn at x \(drawnX) (pointer at 520), server's pose at x \(serverX)")
            #expect(abs(drawnX - 520) < 1.5, "drawn under the pointer at once: \(first)")
            #expect(520 - serverX > 20, "the server's answer has not arrived yet: \(first)")
            // Hold still (no fling), then let go.
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
            let biggest = steps.max() ?? 0
            print("drag echo: \(points.count) frames from the release to the server's pose, biggest step \(biggest) pt")
            #expect(points.count > 5 && biggest < 4, "the drawn box jumped by \(biggest) pt: \(points)")
            let drawn = try page.object("dyn.drawnPose(\(body))"), served = try page.object("dyn.serverPose(\(body))")
            #expect(abs((drawn["x"] as? Double ?? 0) - (served["x"] as? Double ?? 1)) < 0.01, "the server's pose took over")
            withExtendedLifetime((server, proxy)) {}
        }
    }
}
