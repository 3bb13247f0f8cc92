import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// The page's layout and life cycle in a real headless Chromium: a phone (390 x 844, touch) and a wide
    /// screen (1280 x 800), the caption, the favicon and a clean console, and what a lost server looks like.
    /// Screenshots are kept in `.build/test-artifacts`.
    @Suite(.serialized, .timeLimit(.minutes(1)), RequiredTool.chromium.trait)
    struct PageLayoutTests {
        /// Every visible element's right edge and the document's scroll width, against the viewport's width.
        private func overflow(_ page: PageSession, width: Int) throws -> [String] {
            let found = try page.browser.evaluate("""
                JSON.stringify([...document.querySelectorAll('body *')].filter(e => {
                  const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && (r.right > \(width) + 0.5 || r.left < -0.5);
                }).map(e => (e.id || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().left) + '..' + Math.round(e.getBoundingClientRect().right))
                  .concat(document.documentElement.scrollWidth > \(width) ? ['document ' + document.documentElement.scrollWidth] : []))
                """) as? String ?? "[]"
            return (try JSONSerialization.jsonObject(with: Data(found.utf8)) as? [String]) ?? ["unreadable"]
        }

        /// The rows of the canvas above and below the drawn world, in CSS pixels, read from the canvas's pixels:
        /// a row belongs to the world when any pixel in it differs from the page's background (#14161a).
        private func emptyBands(_ page: PageSession) throws -> (above: Double, below: Double) {
            let bands = try page.object("""
                (() => { const c = document.getElementById('world'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                  let top = -1, bottom = -1;
                  for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) {
                    const k = (y * c.width + x) * 4;
                    if (d[k] !== 20 || d[k + 1] !== 22 || d[k + 2] !== 26) { if (top < 0) top = y; bottom = y; break; }
                  }
                  const r = devicePixelRatio || 1; return { above: top / r, below: (c.height - 1 - bottom) / r }; })()
                """)
            func number(_ v: Any?) -> Double? { (v as? Double) ?? (v as? Int).map(Double.init) }
            return (try #require(number(bands["above"])), try #require(number(bands["below"])))
        }

        @Test func onAPhoneNothingOverflowsTheWorldUsesItsHeightAndTouchTapsAndSnaps() throws {
            let page = try PageSession(["--scene", "push"], width: 390, height: 844)
            try page.setViewport(width: 390, height: 844, mobile: true)
            let square = try #require(page.scene?.bodies.first)
            #expect(try overflow(page, width: 390) == [])
            let view = try page.rect("#view")
            // The world fills the width, and its area is no taller than the world drawn there: no empty band
            // above or below it (there were 130 px each); the panel below has the rest of the height.
            #expect(Reliability.eventually(timeout: 5) { (try? emptyBands(page)).map { $0.above <= 6 && $0.below <= 6 } == true },
                    "empty bands above and below the world: \(String(describing: try? emptyBands(page))) in \(view)")
            #expect(try #require(view["height"]) >= 0.95 * 390 * 600 / 800, "the world's area is \(view)")
            // The world is fitted to the screen: as wide as the view allows, inside it.
            let world = try page.object("dyn.worldRect()")
            let worldWidth = try #require(world["width"] as? Double)
            #expect(worldWidth >= 0.95 * (view["width"] ?? 0) || (world["height"] as? Double ?? 0) >= 0.95 * (view["height"] ?? 0))
            #expect((world["left"] as? Double ?? -1) >= (view["left"] ?? 0) - 0.5 && (world["top"] as? Double ?? -1) >= (view["top"] ?? 0) - 0.5)
            // Help speaks of touch too, and the bar's every part is on screen.
            #expect(page.text("document.getElementById('help').textContent").contains("long press"))
            for id in ["#conn", "#scenes", "#name", "#motion", "#ping"] {
                let r = try page.rect(id)
                #expect((r["right"] ?? 999) <= 390 && (r["width"] ?? 0) > 0, "\(id) at \(r)")
            }
            try page.screenshot("page-390x844")
            // A touch on the square taps it; a long press elsewhere snaps it (the selection) there.
            let at = try page.screen(square.width > 0 ? 400 : 400, 300)
            try page.touch(x: at.x, y: at.y)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.taps")) as? Int == 1 }, "the touch tapped")
            let count = page.observer.sceneCount
            let there = try page.screen(200, 450)
            try page.touch(x: there.x, y: there.y, holdMs: 800)
            let snapped = page.observer.scene(after: count, timeout: 10)
            let snap = try #require(snapped?.snaps.first { $0.body == square.id }, "a long press snaps the selection")
            #expect(abs(snap.point.x - 200) < 3 && abs(snap.point.y - 450) < 3, "snapped at \(snap.point)")
            // Pinching magnifies the world to more than twice its area's height;
            // the fit button shows all of it again.
            let middle = ((view["left"] ?? 0) + (view["width"] ?? 0) / 2, (view["top"] ?? 0) + (view["height"] ?? 0) / 2)
            try page.pinch(center: middle, from: 60, to: 180)
            let zoomed = try page.object("dyn.worldRect()")
            #expect((zoomed["height"] as? Double ?? 0) >= 2 * (view["height"] ?? 0), "pinched, the world is \(zoomed)")
            #expect(try overflow(page, width: 390) == [], "the page still fits the screen")
            try page.screenshot("page-390x844-pinched")
            // The tools are folded on a phone: a touch opens them, and their fit button shows the whole world.
            let tools = try page.center("#toolsBox summary")
            try page.touch(x: tools.x, y: tools.y)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("document.getElementById('toolsBox').open")) as? Bool == true })
            #expect(try overflow(page, width: 390) == [], "the open tools fit the screen")
            try page.screenshot("page-390x844-tools")
            let fit = try page.center("#fit")
            try page.touch(x: fit.x, y: fit.y)
            #expect(Reliability.eventually(timeout: 5) { (try? page.evaluate("dyn.view.zoom")) as? Int == 1 })
            #expect(try page.evaluate("dyn.taps") as? Int == 1, "the pinch tapped nothing")
        }

        @Test func onAWideScreenTheHelpIsNeverOverTheWorldAndTheCaptionShows() throws {
            let page = try PageSession(["--scene", "elasticity"], width: 1280, height: 800)
            #expect(try overflow(page, width: 1280) == [])
            let view = try page.rect("#view"), help = try page.rect("#help")
            #expect(try #require(help["top"]) >= (view["bottom"] ?? .infinity) - 0.5, "help \(help) over the world \(view)")
            let world = try page.object("dyn.worldRect()")
            #expect((world["top"] as? Double ?? 0) + (world["height"] as? Double ?? 0) <= (view["bottom"] ?? 0) + 0.5)
            let caption = try #require(page.scene?.caption)
            #expect(caption.contains("together"), "the elasticity caption explains the pair: \(caption)")
            #expect(page.text("document.getElementById('caption').textContent") == caption)
            #expect(page.text("document.getElementById('motion').textContent").hasPrefix("running"))
            try page.screenshot("page-1280x800")
        }

        @Test func theFaviconIsServedAndTheConsoleStaysCleanOnLoad() throws {
            let page = try PageSession(["--scene", "default"])
            let http = try #require(page.server.httpPort)
            let icon = try #require(try HTTPReply.get(port: http, "/favicon.ico"))
            #expect(icon.status == 200)
            #expect(icon.headers["content-type"] == "image/x-icon")
            let console = try ChromiumConsole(page.browser)
            try console.reload()
            console.pump(seconds: 0.5)
            #expect(page.waitUntilReady(), "the reloaded page connected")
            console.pump(seconds: 1.5)
            #expect(console.errors.isEmpty, "console: \(console.errors)")
            // Without rooms on the server, asking for them shows no error either.
            #expect(page.text("document.getElementById('error').textContent") == "")
        }

        @Test func aTokenInThePagesAddressLetsItIntoATokenServer() throws {
            let server = try ServerProcess(["--scene", "push", "--token", "s3cret"])
            let page = try PageSession(server: server, path: "/?token=s3cret", token: "s3cret")
            #expect(page.text("dyn.state") == "open")
            #expect(try page.evaluate("dyn.bodies.size") as? Int == 1, "let in: the page has the scene")
            #expect(page.text("document.getElementById('error').textContent") == "")
        }

        @Test func aLostServerDimsTheWorldUnderABannerAndItsReturnClearsThem() throws {
            let server = try FixedPortServer.start(["--scene", "push"])
            let ports = (tcp: server.port, http: server.httpPort)
            let page = try PageSession(server: server)
            let dimmed = "getComputedStyle(document.getElementById('world')).filter"
            #expect(page.text(dimmed) == "none")
            #expect(try page.evaluate("document.getElementById('banner').offsetParent === null") as? Bool == true)
            server.signal(SIGKILL)
            #expect(server.waitForExit(timeout: 5) != nil)
            let shown = Reliability.eventually(timeout: 10) {
                (try? page.evaluate("dyn.state !== 'open' && document.getElementById('banner').offsetParent !== null")) as? Bool == true
            }
            #expect(shown, "a banner while the server is away")
            #expect(page.text("document.getElementById('banner').textContent").lowercased().contains("disconnected"))
            #expect(page.text(dimmed).contains("brightness"), "the world is dimmed: \(page.text(dimmed))")
            try page.screenshot("page-disconnected")
            let back = try FixedPortServer.restart(on: ports, ["--scene", "push"])
            let cleared = Reliability.eventually(timeout: 15) {
                (try? page.evaluate("dyn.state === 'open' && document.getElementById('banner').offsetParent === null")) as? Bool == true
            }
            #expect(cleared, "the banner goes once the server is back")
            #expect(page.text(dimmed) == "none")
            #expect(page.text("document.getElementById('error').textContent") == "")
            withExtendedLifetime(back) {}
        }
    }
}
