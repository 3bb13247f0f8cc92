/// One client -> server command (docs/PROTOCOL.md), fully validated (types and ranges).
public enum ClientCommand: Equatable, Sendable {
    /// `subscribe` is the optional `subscribe` object inside `hello` (same fields as the command); `room` and
    /// `roomToken` make the hello a `join` of that room right after it (docs/PROTOCOL.md, Rooms).
    case hello(name: String?, token: String?, protocolVersion: Int?, subscribe: SubscriptionChange? = nil,
               room: String? = nil, roomToken: String? = nil)
    /// `t` is echoed in the `pong` as sent (any JSON value).
    case ping(t: JSONValue?)
    case tap(x: Double, y: Double, body: Int?, mode: PushModeName)
    /// `direction` is nil only when `mode`, `active` or `offset` is given (a change of those alone).
    case push(body: Int, direction: PushDirection?, mode: PushModeName?, active: Bool?, offset: Point?)
    /// `begin` and `move` always carry x and y.
    case drag(phase: DragPhase, x: Double?, y: Double?, body: Int?)
    case snap(body: Int, x: Double, y: Double, damping: Double?)
    /// Wire form: `{"type":"snap","body":3,"active":false}`.
    case unsnap(body: Int)
    /// The patch is never empty.
    case set(body: Int, patch: PropertyPatch)
    case gravity(GravityChange)
    case collision(mode: CollisionModeName)
    case spawn(shape: ShapeName, width: Double, height: Double, x: Double, y: Double,
               angle: Double?, vx: Double?, vy: Double?, patch: PropertyPatch)
    case remove(body: Int)
    case scene(name: String)
    case subscribe(SubscriptionChange)
    // docs/PROTOCOL.md, "The rest of UIKit Dynamics": attachments, fields, item and world commands, time.
    /// Ack carries `attachment`.
    case attach(AttachSpec)
    case anchor(attachment: Int, x: Double, y: Double)
    case detach(attachment: Int)
    /// Creates a field; `x` and `y` are always present. Ack carries `field`.
    case field(kind: FieldKindName, FieldParameters)
    /// Wire form: `field` with a `field` id instead of `kind`; at least one parameter is present.
    case fieldUpdate(field: Int, FieldParameters)
    case unfield(field: Int)
    /// At least one of vx, vy, av is present.
    case velocity(body: Int, vx: Double?, vy: Double?, av: Double?, add: Bool)
    /// Adds or replaces a named boundary: 2...256 points, never the name `bounds`.
    case boundary(name: String, points: [Point], closed: Bool)
    /// Wire form: `{"type":"boundary","boundary":"ledge","remove":true}`.
    case removeBoundary(name: String)
    /// At least one of the two is present.
    case bounds(enabled: Bool?, insets: BoundsInsets?)
    /// 2...64 distinct bodies. Ack carries `group`.
    case group(bodies: [Int])
    case ungroup(group: Int)
    case pause
    case resume
    /// 1...600 ticks.
    case step(ticks: Int)
    /// Moves the session to `room` (docs/PROTOCOL.md, Rooms), creating it (with `scene`) when it does not exist.
    /// The name is checked by the server (`RoomName`), not here, so a bad name is answered `bad_value`.
    case join(room: String, scene: String?, roomToken: String?)
    /// Lists the rooms; the ack carries `rooms`.
    case rooms
    // docs/PROTOCOL.md, "Record, replay, checkpoints and the state hash".
    /// The ack carries `tick` and `hash` (16 hex digits) of the room's whole simulation state.
    case hash
    /// Keeps the room's whole state in memory under `name` (admin in the room).
    case checkpoint(name: String)
    /// Puts the room back to the checkpoint `name` (admin in the room).
    case restore(name: String)

    /// The wire `type` of this command.
    public var typeName: String {
        switch self {
        case .hello: return "hello"
        case .ping: return "ping"
        case .tap: return "tap"
        case .push: return "push"
        case .drag: return "drag"
        case .snap, .unsnap: return "snap"
        case .set: return "set"
        case .gravity: return "gravity"
        case .collision: return "collision"
        case .spawn: return "spawn"
        case .remove: return "remove"
        case .scene: return "scene"
        case .subscribe: return "subscribe"
        case .attach: return "attach"
        case .anchor: return "anchor"
        case .detach: return "detach"
        case .field, .fieldUpdate: return "field"
        case .unfield: return "unfield"
        case .velocity: return "velocity"
        case .boundary, .removeBoundary: return "boundary"
        case .bounds: return "bounds"
        case .group: return "group"
        case .ungroup: return "ungroup"
        case .pause: return "pause"
        case .resume: return "resume"
        case .step: return "step"
        case .join: return "join"
        case .rooms: return "rooms"
        case .hash: return "hash"
        case .checkpoint: return "checkpoint"
        case .restore: return "restore"
        }
    }
}

/// A decoded client line: the command and the optional `id` to echo.
///
/// `decode` never throws or traps on any input: every failure is a `ProtocolError` with the exact code of
/// docs/PROTOCOL.md and, when the line was an object with a valid `id`, that id. `encoded()` produces one line
/// that `decode` maps back to an equal message.
public struct ClientMessage: Equatable, Sendable {
    public var id: MessageID?
    public var command: ClientCommand

    public init(id: MessageID? = nil, _ command: ClientCommand) {
        self.id = id
        self.command = command
    }

    public static func decode(_ line: UnsafeRawBufferPointer) -> Result<ClientMessage, ProtocolError> {
        var scanner = JSONScanner(line, maxDepth: 32)
        let root: JSONValue
        do throws(ProtocolError) { root = try scanner.parseDocument() } catch { return .failure(error) }
        guard case let .object(members) = root else {
            return .failure(scanner.deferredError ?? ProtocolError(.badMessage, "a message must be a JSON object"))
        }
        let fields = FieldReader(members: members)
        var id: MessageID?
        if let raw = fields.value("id"), !scanner.topLevelIDUnusable {
            switch raw {
            case let .string(text): id = .string(text)
            case .number: id = scanner.topLevelIDNumberText.map(MessageID.number)
            default: return .failure(ProtocolError(.badMessage, "field \"id\" must be a string or a number, not \(raw.typeDescription)"))
            }
        }
        if var deferred = scanner.deferredError {
            deferred.id = id
            return .failure(deferred)
        }
        do throws(ProtocolError) {
            return .success(ClientMessage(id: id, try ClientCommandDecoder(fields: fields).decode()))
        } catch {
            var answered = error
            answered.id = id
            return .failure(answered)
        }
    }

    public static func decode(_ line: [UInt8]) -> Result<ClientMessage, ProtocolError> {
        line.withUnsafeBytes { decode($0) }
    }

    public static func decode(_ line: String) -> Result<ClientMessage, ProtocolError> {
        var line = line
        return line.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// One JSON line, `"\n"` included: `type` first, then `id`, then the command's fields.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        writer.key("type")
        writer.string(command.typeName)
        if let id {
            writer.key("id")
            writer.id(id)
        }
        ClientCommandEncoder.writeFields(of: command, into: &writer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
