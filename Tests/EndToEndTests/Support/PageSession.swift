import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real `dynserver`, a TCP observer that joined it, and the page it serves in a real headless Chromium,
/// with what browser tests do over and over: wait for the page to be connected and drawn, read its state,
/// real pointer, touch and key input at world points, canvas pixels, element rectangles, and screenshots
/// kept as artefacts.
///
/// Guarantees: `init` returns once the page says `open` and has drawn frames with the scene's items (or
/// records a failed expectation); every wait is bounded; a screenshot is written to
/// `.build/test-artifacts/NAME.png` and its path printed.
final class PageSession {
    let server: ServerProcess
    let observer: LineClient
    let browser: HeadlessChromium
    var scene: SceneInfo?
    var snapshot: Snapshot?

    /// `token`: the server's `--token`, which the observer's hello carries (the page's own comes in `path`).
    /// `httpPort`: where the browser goes instead of the server's HTTP port (a delaying proxy in front of it).
    init(server: ServerProcess, width: Int = 1280, height: Int = 800, path: String = "/", token: String? = nil,
         httpPort: UInt16? = nil) throws {
        self.server = server
        observer = try server.connect()
        if let token {
            _ = observer.next()
            #expect(try observer.ack(.hello(name: "observer", token: token, protocolVersion: 1), id: 9001) != nil)
            scene = observer.nextScene()
            snapshot = observer.nextSnapshot()
        } else {
            let joined = observer.join()
            scene = joined.scene
            snapshot = joined.snapshot
        }
        let http = try httpPort ?? #require(server.httpPort)
        browser = try HeadlessChromium(binary: try RequiredTool.chromium.require(), url: "http://127.0.0.1:\(http)\(path)",
                                       width: width, height: height)
        try setViewport(width: width, height: height, mobile: false)
        #expect(waitUntilReady(), "the page did not connect and draw: \(String(describing: try? evaluate("JSON.stringify({s: dyn.state, f: dyn.frames, b: dyn.bodies.size})")))")
        #expect(waitForSteadyLayout(), "the world kept moving on the screen: \(text("JSON.stringify(dyn.toScreen(0, 0))"))")
    }

    /// Waits until the world's place on the screen has stayed the same for a few frames: a late reflow (the
    /// caption arriving, a font loading in a cold font cache) would otherwise move the world between a test
    /// reading `screen(_:_:)` and its pointer events landing, and they would land a few points off.
    func waitForSteadyLayout(timeout: Double = 10) -> Bool {
        let corners = "JSON.stringify([dyn.toScreen(0, 0), dyn.toScreen(1000, 1000)])"
        var last = "", same = 0
        return Reliability.eventually(timeout: timeout) {
            let now = self.text(corners)
            same = !now.isEmpty && now == last ? same + 1 : 0
            last = now
            return same >= 3
        }
    }

    convenience init(_ arguments: [String], width: Int = 1280, height: Int = 800) throws {
        try self.init(server: try ServerProcess(arguments), width: width, height: height)
    }

    /// The page's viewport in CSS pixels (as a phone's screen, with touch, when `mobile`).
    func setViewport(width: Int, height: Int, mobile: Bool) throws {
        try browser.call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
        try browser.call("Emulation.setTouchEmulationEnabled", mobile ? ["enabled": true, "maxTouchPoints": 1] : ["enabled": false])
        // The layout follows on the next frame; wait until the page measured it.
        _ = Reliability.eventually(timeout: 5) { (try? self.evaluate("innerWidth === \(width) && innerHeight === \(height)")) as? Bool == true }
        usleep(100_000)
    }

    /// Connected, drawn a few frames, and holding as many items as the server's scene.
    func waitUntilReady(timeout: Double = 20) -> Bool {
        let bodies = scene?.bodies.count ?? 0
        return Reliability.eventually(timeout: timeout) {
            (try? self.evaluate("dyn.state === 'open' && dyn.frames > 3 && dyn.bodies.size === \(bodies) && Number(document.getElementById('status').dataset.bodies) === \(bodies)")) as? Bool == true
        }
    }

    func evaluate(_ expression: String) throws -> Any? { try browser.evaluate(expression) }

    func object(_ expression: String) throws -> [String: Any] { try browser.evaluateObject("JSON.stringify(\(expression))") }

    /// A string the page computes (empty when it is not a string).
    func text(_ expression: String) -> String { ((try? evaluate(expression)) as? String) ?? "" }

    /// The page point (CSS pixels) of a world point.
    func screen(_ x: Double, _ y: Double) throws -> (x: Double, y: Double) {
        let p = try object("dyn.toScreen(\(x), \(y))")
        return (try #require(p["x"] as? Double), try #require(p["y"] as? Double))
    }

    /// An element's rectangle: left, top, right, bottom, width, height.
    func rect(_ selector: String) throws -> [String: Double] {
        let r = try object("(() => { const r = document.querySelector('\(selector)').getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; })()")
        return r.compactMapValues { ($0 as? Double) ?? ($0 as? Int).map(Double.init) }
    }

    /// The centre of an element, for a click.
    func center(_ selector: String) throws -> (x: Double, y: Double) {
        let r = try rect(selector)
        return (try #require(r["left"]) + (r["width"] ?? 0) / 2, try #require(r["top"]) + (r["height"] ?? 0) / 2)
    }

    /// The canvas pixel (r, g, b) under a page point.
    func pixel(_ x: Double, _ y: Double) throws -> (r: Int, g: Int, b: Int) {
        let p = try object("""
            (() => { const c = document.getElementById('world'), r = c.getBoundingClientRect(), d = devicePixelRatio || 1;
              const px = c.getContext('2d').getImageData(Math.round((\(x) - r.left) * d), Math.round((\(y) - r.top) * d), 1, 1).data;
              return {r: px[0], g: px[1], b: px[2]}; })()
            """)
        return (p["r"] as? Int ?? -1, p["g"] as? Int ?? -1, p["b"] as? Int ?? -1)
    }

    /// A touch at a page point: start, optionally held `holdMs`, end.
    func touch(x: Double, y: Double, holdMs: Int = 0) throws {
        try browser.call("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": [["x": x, "y": y]]])
        if holdMs > 0 { usleep(UInt32(holdMs) * 1000) }
        try browser.call("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [[String: Any]]()])
    }

    /// Two fingers at `center`, `from` points apart, spread to `to` points apart in `steps` moves, lifted.
    func pinch(center: (x: Double, y: Double), from: Double, to: Double, steps: Int = 8) throws {
        func points(_ spread: Double) -> [[String: Any]] {
            [["x": center.x - spread / 2, "y": center.y, "id": 0], ["x": center.x + spread / 2, "y": center.y, "id": 1]]
        }
        try browser.call("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": points(from)])
        for step in 1...steps {
            try browser.call("Input.dispatchTouchEvent", ["type": "touchMove", "touchPoints": points(from + (to - from) * Double(step) / Double(steps))])
            usleep(16_000)
        }
        try browser.call("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [[String: Any]]()])
    }

    /// A key press as a keyboard makes it (keyDown with its text, then keyUp).
    func key(_ key: String, code: String, keyCode: Int, text: String? = nil) throws {
        var down: [String: Any] = ["type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keyCode]
        if let text { down["text"] = text }
        try browser.call("Input.dispatchKeyEvent", down)
        try browser.call("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
    }

    /// Text typed into the focused field.
    func type(_ text: String) throws { try browser.call("Input.insertText", ["text": text]) }

    /// A press at `from`, moves in `steps` to `to` about a display frame apart, and the release there.
    func drag(from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 12) throws {
        try browser.mouse("mousePressed", x: from.x, y: from.y, held: true)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            try browser.mouse("mouseMoved", x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f, held: true)
            usleep(16_000)
        }
        try browser.mouse("mouseReleased", x: to.x, y: to.y, held: false)
    }

    /// Writes a screenshot to `.build/test-artifacts/NAME.png` and returns its path.
    @discardableResult
    func screenshot(_ name: String) throws -> String {
        let png = try browser.screenshot()
        let directory = EndToEnd.BrowserTests.artifactsDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("\(name).png")
        try png.write(to: file)
        print("page screenshot: \(file.path) (\(png.count) bytes)")
        return file.path
    }
}
