import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A headless Chromium driven over the DevTools protocol (CDP): started with `--remote-debugging-port=0`,
/// its page target reached with our own `WebSocketClient`, commands sent as JSON text frames.
///
/// Guarantees: `init` returns once a page target for `url` answers CDP (or throws within `timeout`, with
/// Chromium's log); `call` returns the `result` of the answer with its id (throwing on a CDP error or
/// timeout); the browser is killed and its profile directory removed when the object goes away.
final class HeadlessChromium {
    let process = Process()
    let profile: URL
    private let log: URL
    private var page: WebSocketClient!
    private var nextID = 1

    init(binary: String, url: String, width: Int = 1000, height: Int = 800, timeout: Double = 30) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("dyn-chromium-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        log = profile.appendingPathComponent("chromium.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                             "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                             "--disable-sync", "--mute-audio", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                             "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", url]
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        let deadline = Date().addingTimeInterval(timeout)
        do {
            let port = try waitForDevToolsPort(deadline: deadline)
            let target = try waitForPageTarget(port: port, url: url, deadline: deadline)
            page = try WebSocketClient(port: port, path: target)
        } catch {
            throw EndToEndError("\(error); chromium log:\n\(chromiumLog.suffix(3000))")
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: profile)
    }

    var chromiumLog: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Chromium writes `DevToolsActivePort` (port, then the browser's path) into the profile once listening.
    private func waitForDevToolsPort(deadline: Date) throws -> UInt16 {
        let file = profile.appendingPathComponent("DevToolsActivePort")
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8),
               let first = text.split(separator: "\n").first, let port = UInt16(first) {
                return port
            }
            guard process.isRunning else { throw EndToEndError("chromium exited with status \(process.terminationStatus)") }
            usleep(50_000)
        }
        throw EndToEndError("chromium wrote no DevToolsActivePort in time")
    }

    /// The WebSocket path of the page target showing `url`, from `/json/list`.
    private func waitForPageTarget(port: UInt16, url: String, deadline: Date) throws -> String {
        while Date() < deadline {
            if let reply = try? HTTPReply.get(port: port, "/json/list"), reply.status == 200,
               let targets = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]] {
                for target in targets where target["type"] as? String == "page" {
                    if let ws = target["webSocketDebuggerUrl"] as? String, (target["url"] as? String)?.hasPrefix(url) == true,
                       let range = ws.range(of: "/devtools/") {
                        return String(ws[range.lowerBound...])
                    }
                }
            }
            usleep(100_000)
        }
        throw EndToEndError("no page target for \(url)")
    }

    /// Sends one CDP command and returns its `result`.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], timeout: Double = 10) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        let data = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        try page.send(String(decoding: data, as: UTF8.self))
        let deadline = Date().addingTimeInterval(timeout)
        while let frame = page.nextFrame(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard case .text(let bytes) = frame,
                  let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  object["id"] as? Int == id else { continue }
            if let error = object["error"] { throw EndToEndError("\(method) failed: \(error)") }
            return object["result"] as? [String: Any] ?? [:]
        }
        throw EndToEndError("no answer to \(method) within \(timeout) s")
    }

    /// Evaluates `expression` in the page and returns its value (a string, number, bool or nil).
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw EndToEndError("page threw: \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Evaluates an expression that returns `JSON.stringify(...)` of an object, and decodes it.
    func evaluateObject(_ expression: String) throws -> [String: Any] {
        guard let text = try evaluate(expression) as? String,
              let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
        return object
    }

    /// A left click (press and release, no movement) at page coordinates.
    func click(x: Double, y: Double) throws {
        for type in ["mousePressed", "mouseReleased"] {
            try call("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left", "buttons": type == "mousePressed" ? 1 : 0, "clickCount": 1])
        }
    }

    /// One mouse event (`mousePressed`, `mouseMoved` or `mouseReleased`) with `button`, at page
    /// coordinates; `held` says whether the button is down after it.
    func mouse(_ type: String, x: Double, y: Double, held: Bool, button: String = "left") throws {
        let mask = button == "left" ? 1 : 2
        try call("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": button, "buttons": held ? mask : 0, "clickCount": 1])
    }

    /// A PNG of the page as it is drawn now.
    func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", ["format": "png"], timeout: 20)
        guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw EndToEndError("Page.captureScreenshot returned no image")
        }
        return data
    }
}
