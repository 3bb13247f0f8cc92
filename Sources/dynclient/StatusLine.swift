/// The state of the link to the server, as the status line tells it.
enum ConnectionStatus: Equatable, Sendable {
    case connecting
    case connected
    /// The server went away (`reason`); the next attempt is in `inMs` milliseconds.
    case reconnecting(inMs: UInt64, attempt: Int, reason: String)
}

/// Everything the status line shows.
struct StatusInfo: Equatable, Sendable {
    var address: String
    var connection: ConnectionStatus = .connecting
    var clientID: Int?
    var tick: UInt64?
    /// Snapshots received during the last full second.
    var snapshotRate = 0
    var pingMs: Double?
    var items = 0
    var clients = 0
    var paused = false
    var selected: Int?
    /// The latest server error or local notice.
    var message: String?
}

/// Formats the status line.
///
/// Guarantees: the fields appear in a fixed order (address, client id, tick, snapshot rate, ping, items,
/// clients, running/paused, selection) separated by ` | `, unknown values as `-`; the latest message (or
/// the `? help` hint) ends the line and is kept whole by cutting the fields first; the result is exactly
/// `width` characters (cut or padded with spaces).
enum StatusLine {
    static func text(_ info: StatusInfo, width: Int) -> String {
        var fields = ["dyn \(info.address)"]
        switch info.connection {
        case .connecting:
            fields.append("connecting...")
        case let .reconnecting(inMs, attempt, reason):
            fields.append("\(reason) - reconnecting in \(format(Double(inMs) / 1000, decimals: 1)) s (attempt \(attempt))")
        case .connected:
            fields.append("client \(info.clientID.map(String.init) ?? "-")")
            fields.append("tick \(info.tick.map(String.init) ?? "-")")
            fields.append("\(info.snapshotRate) snap/s")
            fields.append("ping \(info.pingMs.map { format($0, decimals: $0 < 10 ? 1 : 0) } ?? "-") ms")
            fields.append("items \(info.items)")
            fields.append("clients \(info.clients)")
            fields.append(info.paused ? "paused" : "running")
        }
        if let selected = info.selected { fields.append("selected #\(selected)") }
        let right = info.message.map { " | " + $0 + " " } ?? " | ? help "
        let leftRoom = width - right.unicodeScalars.count
        // A message must stay readable: the fields give way to it (last ones first), not the other way round.
        guard leftRoom >= 12 else { return fit(" " + (info.message ?? ""), width: width) }
        while fields.count > 1, 1 + fields.joined(separator: " | ").unicodeScalars.count > leftRoom { fields.removeLast() }
        let left = fit(" " + fields.joined(separator: " | "), width: leftRoom)
        return fit(left.trimmingTrailingSpaces() + right, width: width)
    }

    static func fit(_ text: String, width: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        guard width > 0 else { return "" }
        if scalars.count >= width { return String(String.UnicodeScalarView(scalars.prefix(width))) }
        return text + String(repeating: " ", count: width - scalars.count)
    }

    /// A fixed-point number without Foundation: `format(12.345, decimals: 1)` is `12.3`.
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(scaled) }
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        return sign + "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}

/// The help overlay's text (keys and mouse).
enum HelpOverlay {
    static let lines = [
        "dynclient - keys and mouse",
        "",
        "mouse click       tap at that point",
        "press item + move drag it",
        "right click       snap selected item there",
        "Tab / Shift-Tab   select next / previous item",
        "arrows or h j k l move the cursor (H J K L: 5x)",
        "Enter or t        tap at the cursor",
        "d                 start / end a drag at the cursor",
        "s                 snap selected item to the cursor",
        "g                 turn gravity a quarter turn",
        "r                 reload the scene",
        "Esc               end a drag",
        "?                 show / hide this help",
        "q or Ctrl-C       quit",
    ]
}

extension String {
    func trimmingTrailingSpaces() -> String {
        guard let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[...last])
    }
}
