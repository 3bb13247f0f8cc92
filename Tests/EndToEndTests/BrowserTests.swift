import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The browser client served at `/`, in a real headless Chromium (docs/PROTOCOL.md, HTTP): the page
    /// connects over `/ws`, draws the world, and a synthesized click taps an item that a TCP client sees move.
    /// The screenshot is kept as `.build/test-artifacts/browser-client.png`.
    @Suite(.serialized)
    struct BrowserTests {
        /// Where test artefacts go: `.build/test-artifacts`, next to the build products.
        static var artifactsDirectory: URL {
            ServerProcess.productsDirectory.deletingLastPathComponent().appendingPathComponent("test-artifacts")
        }

        @Test(.timeLimit(.minutes(5)), RequiredTool.chromium.trait)
        func pageConnectsDrawsTheWorldAndAClickTapsTheItemATCPClientSeesMove() throws {
            // The push scene: one 80 x 80 square at (400, 300), no gravity, at rest.
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let observer = try server.connect()
            let joined = observer.join()
            let square = try #require(joined.scene?.bodies.first)
            let before = try #require(joined.snapshot?.body(square.id))

            let url = "http://127.0.0.1:\(http)/"
            let browser = try HeadlessChromium(binary: try RequiredTool.chromium.require(), url: url)
            // The page is connected and has drawn a few frames with the body in them.
            var status: [String: Any] = [:]
            let ready = Reliability.eventually(timeout: 20) {
                status = (try? browser.evaluateObject(
                    "JSON.stringify({state: dyn.state, bodies: Number(document.getElementById('status').dataset.bodies), frames: dyn.frames, client: dyn.client})")) ?? [:]
                return status["state"] as? String == "open" && status["bodies"] as? Int == 1 && (status["frames"] as? Int ?? 0) > 3
            }
            #expect(ready, "page state: \(status)")
            let seen = observer.nextSnapshot(timeout: 5) { $0.clients == 2 }
            #expect(seen != nil, "the TCP client counts the browser as a second client")

            // The canvas pixel under the square's centre has the square's colour.
            let probe = try browser.evaluateObject("""
                (() => { const id = \(square.id), p = dyn.screenPointOf(id), c = document.getElementById('world');
                  const r = c.getBoundingClientRect(), d = devicePixelRatio || 1;
                  const px = c.getContext('2d').getImageData(Math.round((p.x - r.left) * d), Math.round((p.y - r.top) * d), 1, 1).data;
                  return JSON.stringify({x: p.x, y: p.y, r: px[0], g: px[1], b: px[2]}); })()
                """)
            let hex = String(format: "#%02x%02x%02x", probe["r"] as? Int ?? -1, probe["g"] as? Int ?? -1, probe["b"] as? Int ?? -1)
            #expect(hex == square.color.lowercased(), "pixel at the square's centre is \(hex), the square is \(square.color)")

            let png = try browser.screenshot()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
            try FileManager.default.createDirectory(at: Self.artifactsDirectory, withIntermediateDirectories: true)
            let artefact = Self.artifactsDirectory.appendingPathComponent("browser-client.png")
            try png.write(to: artefact)
            print("browser screenshot: \(artefact.path) (\(png.count) bytes)")

            // A click 60 px right of the square's centre taps it (the item under the point, else the nearest):
            // tap-push aims at the click and is continuous, so the square moves right.
            let x = try #require(probe["x"] as? Double), y = try #require(probe["y"] as? Double)
            try browser.click(x: x + 60, y: y)
            let moved = observer.nextSnapshot(timeout: 5) { ($0.body(square.id)?.x ?? 0) > before.x + 5 }
            #expect(moved != nil, "the TCP client sees the square move right after the browser's click")
            let taps = Reliability.eventually(timeout: 5) {
                ((try? browser.evaluate("Number(document.getElementById('status').dataset.taps)")) as? Int ?? 0) >= 1
            }
            #expect(taps, "the page got the ack of its tap")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5)), RequiredTool.chromium.trait)
        func pressAndMoveDragsTheItemUnderTheBrowsersNameAndRightClickSnapsIt() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let observer = try server.connect()
            let joined = observer.join()
            let square = try #require(joined.scene?.bodies.first)
            let before = try #require(joined.snapshot?.body(square.id))
            let browser = try HeadlessChromium(binary: try RequiredTool.chromium.require(), url: "http://127.0.0.1:\(http)/")
            let ready = Reliability.eventually(timeout: 20) {
                ((try? browser.evaluate("dyn.state === 'open' && dyn.bodies.size === 1 && dyn.frames > 3")) as? Bool) == true
            }
            #expect(ready, "the page connected and drew")
            let start = try browser.evaluateObject("JSON.stringify(dyn.screenPointOf(\(square.id)))")
            let x = try #require(start["x"] as? Double), y = try #require(start["y"] as? Double)
            // Press on the square and move right, holding the button: the TCP client sees the drag (with the
            // page's hello name) while it lasts and the square following; the release ends it.
            try browser.mouse("mousePressed", x: x, y: y, held: true)
            for step in 1...5 { try browser.mouse("mouseMoved", x: x + Double(step) * 4, y: y, held: true) }
            let sawDrag = observer.nextSnapshot(timeout: 10) { s in s.drags.contains { $0.body == square.id && $0.name.hasPrefix("web-") } }
            #expect(sawDrag != nil, "the TCP client sees the browser's drag with its name")
            for step in 1...13 {
                try browser.mouse("mouseMoved", x: x + 20 + Double(step) * 10, y: y, held: true)
                usleep(16_000)   // about one display frame between moves, as a hand would
            }
            let moved = observer.nextSnapshot(timeout: 10) { ($0.body(square.id)?.x ?? 0) > before.x + 60 }
            #expect(moved != nil, "the square followed the pointer to the right")
            try browser.mouse("mouseReleased", x: x + 150, y: y, held: false)
            let released = observer.nextSnapshot(timeout: 10) { $0.drags.isEmpty }
            #expect(released != nil, "the release ends the drag")

            // A right click snaps the selected item (the one just dragged) to that point.
            let scenes = observer.sceneCount
            try browser.mouse("mousePressed", x: x - 200, y: y, held: true, button: "right")
            try browser.mouse("mouseReleased", x: x - 200, y: y, held: false, button: "right")
            let snapped = observer.scene(after: scenes, timeout: 10)
            let snap = try #require(snapped?.snaps.first { $0.body == square.id }, "the scene lists a snap of the square")
            #expect(snap.point.x < before.x - 100, "snapped left of where it started, at \(snap.point.x)")
            withExtendedLifetime(server) {}
        }
    }
}
