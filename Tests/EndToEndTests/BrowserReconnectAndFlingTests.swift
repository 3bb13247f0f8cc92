import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// The browser page's reconnection and fling (docs/PROTOCOL.md, HTTP; the page's own notes), in a real
    /// headless Chromium: a page whose server went away joins the server that comes back on the same port, and
    /// a quick stroke released while moving gives the item the pointer's velocity.
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct BrowserReconnectAndFlingTests {
        @Test(RequiredTool.chromium.trait)
        func aPageWhoseServerWentAwayJoinsTheOneThatComesBackOnItsPort() throws {
            let chromium = try RequiredTool.chromium.require()
            let tcp = try TCPSocket.freePort(), http = try TCPSocket.freePort()
            let ports = ["--port", String(tcp), "--http-port", String(http)]
            var first: ServerProcess? = try ServerProcess(["--scene", "push"] + ports)
            let browser = try HeadlessChromium(binary: chromium, url: "http://127.0.0.1:\(http)/")
            let joined = Reliability.eventually(timeout: 20) {
                ((try? browser.evaluate("dyn.state === 'open' && dyn.bodies.size === 1")) as? Bool) == true
            }
            #expect(joined, "the page joined the first server")
            first?.signal(SIGKILL)
            _ = first?.waitForExit(timeout: 10)
            first = nil
            let left = Reliability.eventually(timeout: 20) {
                ((try? browser.evaluate("dyn.state !== 'open'")) as? Bool) == true
            }
            #expect(left, "the page saw its server go away")
            // The same ports, a different scene: the page must be on the new server to show it.
            let second = try ServerProcess(["--scene", "elasticity"] + ports)
            let observer = try second.connect()
            _ = observer.join()
            let counted = observer.nextSnapshot(timeout: 30) { $0.clients == 2 }
            #expect(counted != nil, "the page reconnected: the new server counts it")
            let scene = Reliability.eventually(timeout: 20) {
                ((try? browser.evaluate("dyn.state === 'open' && dyn.scene && dyn.scene.name === 'elasticity'")) as? Bool) == true
            }
            #expect(scene, "the page shows the new server's scene")
        }

        @Test(RequiredTool.chromium.trait)
        func aStrokeReleasedWhileMovingFlingsTheItemWithThePointersVelocity() throws {
            let chromium = try RequiredTool.chromium.require()
            // Held: nothing moves while the drag lasts, so a velocity after the release can only be the fling's.
            let server = try ServerProcess(["--scene", "push", "--held"])
            let http = try #require(server.httpPort)
            let observer = try server.connect()
            let square = try #require(observer.join().scene?.bodies.first)
            let browser = try HeadlessChromium(binary: chromium, url: "http://127.0.0.1:\(http)/")
            let ready = Reliability.eventually(timeout: 20) {
                ((try? browser.evaluate("dyn.state === 'open' && dyn.bodies.size === 1")) as? Bool) == true
            }
            #expect(ready, "the page connected")
            let start = try browser.evaluateObject("JSON.stringify(dyn.screenPointOf(\(square.id)))")
            let x = try #require(start["x"] as? Double), y = try #require(start["y"] as? Double)
            try browser.mouse("mousePressed", x: x, y: y, held: true)
            for step in 1...8 {
                try browser.mouse("mouseMoved", x: x + Double(step) * 12, y: y, held: true)
                usleep(16_000)   // about one display frame between moves, as a hand would; it paces, it synchronises nothing
            }
            try browser.mouse("mouseReleased", x: x + 96, y: y, held: false)
            // The page's own next message steps the world: it is handled after the page's drag end and fling.
            _ = try browser.evaluate(#"ws.send(JSON.stringify({type: "step", ticks: 1, id: "after-fling"}))"#)
            let stepped = try #require(observer.nextSnapshot(timeout: 20) { $0.held && $0.tick >= 1 }, "the page's step")
            let state = try #require(stepped.body(square.id))
            #expect(stepped.drags.isEmpty, "the release ended the drag")
            #expect(state.vx > 30 && abs(state.vy) < state.vx / 4, "flung to the right: (\(state.vx), \(state.vy)) pt/s")
        }
    }
}
