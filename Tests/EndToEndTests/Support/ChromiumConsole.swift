import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A second DevTools connection to the page a `HeadlessChromium` shows, listening to what the console and
/// the browser's log report: uncaught exceptions, `console.error`, and log entries of level error (a
/// resource that failed to load, such as a missing favicon, is one).
///
/// Guarantees: `init` returns with the Runtime and Log domains enabled on the page target (or throws);
/// `reload()` loads the page again with this connection listening from the start; `pump(seconds:)` reads
/// events for that long and keeps every error in `errors`, as text.
final class ChromiumConsole {
    private let socket: WebSocketClient
    private var nextID = 1_000_000
    private(set) var errors: [String] = []

    init(_ browser: HeadlessChromium) throws {
        let file = browser.profile.appendingPathComponent("DevToolsActivePort")
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let port = text.split(separator: "\n").first.flatMap({ UInt16($0) }) else {
            throw EndToEndError("no DevToolsActivePort in \(browser.profile.path)")
        }
        guard let reply = try HTTPReply.get(port: port, "/json/list"), reply.status == 200,
              let targets = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]],
              let page = targets.first(where: { $0["type"] as? String == "page" }),
              let url = page["webSocketDebuggerUrl"] as? String, let range = url.range(of: "/devtools/") else {
            throw EndToEndError("no page target to listen to")
        }
        socket = try WebSocketClient(port: port, path: String(url[range.lowerBound...]))
        try send("Runtime.enable")
        try send("Log.enable")
        try send("Page.enable")
    }

    private func send(_ method: String, _ params: [String: Any] = [:]) throws {
        nextID += 1
        let data = try JSONSerialization.data(withJSONObject: ["id": nextID, "method": method, "params": params])
        try socket.send(String(decoding: data, as: UTF8.self))
    }

    /// Loads the page again, bypassing the cache, with this connection already listening.
    func reload() throws { try send("Page.reload", ["ignoreCache": true]) }

    /// Reads events for `seconds`, keeping the errors.
    func pump(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let frame = socket.nextFrame(timeout: max(0.01, deadline.timeIntervalSinceNow)) else { continue }
            guard case .text(let bytes) = frame,
                  let event = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  let method = event["method"] as? String, let params = event["params"] as? [String: Any] else { continue }
            switch method {
            case "Runtime.exceptionThrown":
                let details = params["exceptionDetails"] as? [String: Any]
                let exception = details?["exception"] as? [String: Any]
                errors.append("exception: \(exception?["description"] ?? details?["text"] ?? "?")")
            case "Runtime.consoleAPICalled" where params["type"] as? String == "error":
                let args = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "?")" }
                errors.append("console.error: \(args.joined(separator: " "))")
            case "Log.entryAdded":
                if let entry = params["entry"] as? [String: Any], entry["level"] as? String == "error" {
                    errors.append("log: \(entry["text"] ?? "?") \(entry["url"] ?? "")")
                }
            default: break
            }
        }
    }
}
