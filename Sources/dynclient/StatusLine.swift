import NetProtocol

/// The state of the link to the server, as the status line tells it.
enum ConnectionStatus: Equatable, Sendable {
    case connecting
    case connected
    /// The server went away (`reason`); the next attempt is in `inMs` milliseconds.
    case reconnecting(inMs: UInt64, attempt: Int, reason: String)
    /// The server wants a token we did not give (or gave wrong).
    case unauthorized

    var isConnected: Bool { self == .connected }
}

/// Whether the world moves: stepping, at rest (the animator paused itself: `paused` in snapshots), or held
/// by a `pause` command. The words people read are `running`, `at rest` and `held`, in the terminal and on
/// the page alike (`/metrics` counts the rooms at rest or held in `dyn_world_paused`).
enum WorldMotion: Equatable, Sendable {
    case running, atRest, held
}

/// Everything the status line shows.
struct StatusInfo: Equatable, Sendable {
    var address: String
    var connection: ConnectionStatus = .connecting
    /// The room this client is in (shown when the server names one other than `main`).
    var room: String?
    var scene: String?
    var motion: WorldMotion = .running
    var tick: UInt64?
    /// While at rest: the tick the world came to rest at (the server's tick keeps counting keep-alives).
    var restTick: UInt64?
    var clients = 0
    var items = 0
    /// The selection, already described (`#3 rect 100x100 e0.5`).
    var selection: String?
    var pingMs: Double?
    /// The interpolation buffer's current delay.
    var bufferMs: Double?
    /// Snapshots received during the last full second.
    var snapshotRate = 0
    /// Why the server refuses this client's structural commands, once it did: `admin token needed`, or
    /// `replay` in a room that plays a recording (no token helps there); nil while nothing was refused.
    var readOnly: String?
}

/// Formats the status line (docs/ARCHITECTURE.md, dynclient).
///
/// Guarantees: the connection state always comes first (`connected`, `connecting`, `reconnecting in 2.3 s`,
/// `unauthorized: give --token`), then, in this order of importance, the room (when known and not `main`:
/// docs/PROTOCOL.md, Rooms), the scene name,
/// `read-only: admin token needed` (or `read-only: replay`) once the server refused a structural command,
/// `running` / `at rest` / `held`, the tick (`tick 1234`, or `at rest since tick 1200`, which stands still
/// as the words say), clients, the selection, ping, the buffer delay, the snapshot rate and the items,
/// separated by ` | `; when the width is short whole fields go, the least important first, never a word
/// cut in half, so at 80 columns the state and the scene always show; only the connection state itself is
/// cut when the terminal is narrower than it; the result is exactly `width` characters.
enum StatusLine {
    static func text(_ info: StatusInfo, width: Int) -> String {
        var fields: [String] = []
        switch info.connection {
        case .connecting: fields.append("connecting to \(info.address)")
        case .connected: fields.append("connected")
        case let .reconnecting(inMs, _, _): fields.append("reconnecting in \(format(Double(inMs) / 1000, decimals: 1)) s")
        case .unauthorized: fields.append("unauthorized: give --token")
        }
        // `main` is where every client is that never asked for a room: it is not news (docs/PROTOCOL.md, Rooms).
        if let room = info.room, room != "main" { fields.append("room \(room)") }
        fields.append("scene \(info.scene ?? "-")")
        if let reason = info.readOnly, info.connection.isConnected { fields.append("read-only: \(reason)") }
        if info.connection.isConnected {
            let tick = info.tick.map(String.init) ?? "-"
            switch info.motion {
            case .running: fields += ["running", "tick \(tick)"]
            case .atRest: fields.append("at rest since tick \(info.restTick.map(String.init) ?? tick)")
            case .held: fields += ["held", "tick \(tick)"]
            }
            fields.append("\(info.clients) client\(info.clients == 1 ? "" : "s")")
        } else if case let .reconnecting(_, attempt, reason) = info.connection {
            fields.append(reason)
            fields.append("attempt \(attempt)")
        }
        fields.append(info.selection.map { "sel \($0)" } ?? "no selection")
        if info.connection.isConnected {
            fields.append("ping \(info.pingMs.map { format($0, decimals: $0 < 10 ? 1 : 0) } ?? "-") ms")
            if let buffer = info.bufferMs { fields.append("buf \(format(buffer, decimals: 0)) ms") }
            fields.append("\(info.snapshotRate) snap/s")
            fields.append("\(info.items) item\(info.items == 1 ? "" : "s")")
        }
        // The fields are in order of importance: the first one that does not fit goes with all after it.
        var line = " " + fields[0]
        for field in fields.dropFirst() {
            guard line.unicodeScalars.count + 3 + field.unicodeScalars.count <= width else { break }
            line += " | " + field
        }
        return fit(line, width: width)
    }

    /// The world's settings as the first info row starts them: `gravity 1 down | collide everything`.
    static func settings(_ scene: SceneInfo) -> String {
        "\(describe(scene.gravity)) | collide \(scene.collisionMode.rawValue)"
    }

    /// Gravity in words: `gravity off`, `gravity 1 down` (up, left, right), else `gravity 0.5 at 45deg`
    /// (degrees clockwise from +x, as the world's y points down).
    static func describe(_ gravity: GravityInfo) -> String {
        guard gravity.magnitude != 0, gravity.dx != 0 || gravity.dy != 0 else { return "gravity off" }
        let size = compact(gravity.magnitude)
        // Turned by an angle, a component that should be 0 is a rounding error away from it (sin(pi)).
        let tiny = 1e-9 * max(abs(gravity.dx), abs(gravity.dy))
        switch (gravity.dx, gravity.dy) {
        case let (dx, dy) where abs(dx) <= tiny: return "gravity \(size) \(dy > 0 ? "down" : "up")"
        case let (dx, dy) where abs(dy) <= tiny: return "gravity \(size) \(dx > 0 ? "right" : "left")"
        default:
            let degrees = Angle.direction(dx: gravity.dx, dy: gravity.dy) * 180 / Double.pi
            return "gravity \(size) at \(format(degrees, decimals: 0))deg"
        }
    }

    /// Describes an item for the status line: id, shape, size and the properties that differ from UIKit's
    /// defaults.
    static func describe(_ body: BodyInfo) -> String {
        var text = "#\(body.id) \(body.shape.wireName) \(compact(body.width))x\(compact(body.height))"
        if body.elasticity != 0 { text += " e\(compact(body.elasticity))" }
        if body.friction != 0 { text += " f\(compact(body.friction))" }
        if body.density != 1 { text += " d\(compact(body.density))" }
        if body.charge != 0 { text += " q\(compact(body.charge))" }
        if body.anchored { text += " anchored" }
        return text
    }

    /// At most two decimals, trailing zeros dropped: `0.6`, `2`, `0.25`.
    static func compact(_ value: Double) -> String {
        var text = format(value, decimals: 2)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
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
