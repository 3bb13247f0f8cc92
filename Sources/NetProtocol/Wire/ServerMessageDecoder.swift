/// Why a server line could not be decoded; `ServerMessage.decode` turns it into nil.
struct MalformedServerMessage: Error {}

/// Reads server -> client messages from a parsed object: any number spelling is accepted, but every field
/// must have its type; unknown fields are ignored.
struct ServerMessageDecoder {
    let members: [(String, JSONValue)]
    /// The numeric top-level `id` as written on the wire, when there was one.
    let numericID: MessageID?

    func decode() throws(MalformedServerMessage) -> ServerMessage {
        let root = Fields(members)
        switch try root.string("type") {
        case "welcome": return .welcome(try welcome(root))
        case "scene": return .scene(try scene(root))
        case "snapshot": return .snapshot(try snapshot(root))
        case "frame": return .frame(try frame(root))
        case "packed":
            guard let data = PackedLine.decodeData(try root.string("data")) else { throw MalformedServerMessage() }
            return .packed(tick: try root.tick("tick"), data: data)
        case "ack":
            let fields = members.filter { $0.0 != "type" && $0.0 != "id" }
            return .ack(id: try id(root), fields: fields)
        case "error":
            guard let code = ErrorCode(rawValue: try root.string("code")) else { throw MalformedServerMessage() }
            return .error(ProtocolError(code, try root.string("message"), id: try id(root)))
        case "pong": return .pong(t: root.raw("t"), tick: try root.tick("tick"), id: try id(root))
        case "bye": return .bye(reason: try root.string("reason"))
        case "contact": return .contact(try contact(root))
        case "notice": return .notice(try notice(root))
        case "redirect":
            return .redirect(Redirect(room: try root.string("room"), host: try root.string("host"), port: try root.int("port"),
                                      http: try root.string("http"), id: try id(root)))
        default: throw MalformedServerMessage()
        }
    }

    private func id(_ root: Fields) throws(MalformedServerMessage) -> MessageID? {
        switch root.raw("id") {
        case nil: return nil
        case let .string(text)?: return .string(text)
        case .number?: return numericID
        default: throw MalformedServerMessage()
        }
    }

    private func welcome(_ f: Fields) throws(MalformedServerMessage) -> Welcome {
        let world = try f.object("world")
        return Welcome(protocolVersion: try f.int("protocol"), client: try f.int("client"), server: try f.string("server"),
                       worldWidth: try world.number("width"), worldHeight: try world.number("height"),
                       tickHz: try f.number("tick_hz"), snapshotHz: try f.number("snapshot_hz"),
                       authRequired: try f.bool("auth_required"), room: f.raw("room")?.string,
                       httpPort: try httpPort(f))
    }

    /// `http_port`, when the server has an HTTP listener: a port number, 1…65535.
    private func httpPort(_ f: Fields) throws(MalformedServerMessage) -> Int? {
        guard f.has("http_port") else { return nil }
        let port = try f.int("http_port")
        guard (1...65_535).contains(port) else { throw MalformedServerMessage() }
        return port
    }

    private func scene(_ f: Fields) throws(MalformedServerMessage) -> SceneInfo {
        let gravity = try f.object("gravity")
        guard let mode = CollisionModeName(rawValue: try f.string("collision_mode")) else { throw MalformedServerMessage() }
        var info = SceneInfo(
            name: try f.string("name"),
            gravity: GravityInfo(dx: try gravity.number("dx"), dy: try gravity.number("dy"),
                                 magnitude: try gravity.number("magnitude")),
            collisionMode: mode,
            bodies: try f.objects("bodies").map(body),
            boundaries: try f.objects("boundaries").map { (b: Fields) throws(MalformedServerMessage) in
                BoundaryInfo(id: try b.string("id"), points: try b.pairs("points"), closed: try b.bool("closed"))
            },
            attachments: try f.objects("attachments").map(attachment),
            snaps: try f.objects("snaps").map { (s: Fields) throws(MalformedServerMessage) in
                SnapInfo(body: try s.int("body"), point: try s.point("point"), damping: try s.number("damping"))
            })
        try sceneExtras(f, into: &info)
        return info
    }

    private func body(_ b: Fields) throws(MalformedServerMessage) -> BodyInfo {
        let shape: ShapeName
        switch try b.string("shape") {
        case "rect": shape = .rect
        case "ellipse": shape = .ellipse
        case "polygon": shape = .polygon(try b.pairs("points"))
        default: throw MalformedServerMessage()
        }
        return BodyInfo(id: try b.int("id"), shape: shape, width: try b.number("width"), height: try b.number("height"),
                        elasticity: try b.number("elasticity"), friction: try b.number("friction"),
                        density: try b.number("density"), resistance: try b.number("resistance"),
                        angularResistance: try b.number("angular_resistance"),
                        allowsRotation: try b.bool("allows_rotation"), anchored: try b.bool("anchored"),
                        color: try b.string("color"), charge: b.has("charge") ? try b.number("charge") : 0)
    }

    private func attachment(_ a: Fields) throws(MalformedServerMessage) -> AttachmentInfo {
        var info = AttachmentInfo(body: try a.int("body"), anchor: a.has("anchor") ? try a.point("anchor") : nil,
                       toBody: a.has("to_body") ? try a.int("to_body") : nil, offset: try a.point("offset"),
                       toOffset: a.has("to_offset") ? try a.point("to_offset") : nil, length: try a.number("length"),
                       frequency: try a.number("frequency"), damping: try a.number("damping"))
        try attachmentExtras(a, into: &info)
        return info
    }

    private func snapshot(_ f: Fields) throws(MalformedServerMessage) -> Snapshot {
        var snapshot = Snapshot(
            tick: try f.tick("tick"), time: try f.number("time"), paused: try f.bool("paused"),
            clients: f.has("clients") ? try f.int("clients") : 0,
            bodies: try f.objects("bodies").map { (b: Fields) throws(MalformedServerMessage) in
                BodyState(id: try b.int("id"), x: try b.number("x"), y: try b.number("y"), angle: try b.number("angle"),
                          vx: try b.number("vx"), vy: try b.number("vy"), av: try b.number("av"))
            },
            drags: try drags(f))
        if f.has("held") { snapshot.held = try f.bool("held") }
        return snapshot
    }

    private func drags(_ f: Fields) throws(MalformedServerMessage) -> [DragInfo] {
        f.has("drags") ? try f.objects("drags").map { (d: Fields) throws(MalformedServerMessage) in
            DragInfo(client: try d.int("client"), name: d.has("name") ? try d.string("name") : "",
                     body: try d.int("body"), x: try d.number("x"), y: try d.number("y"),
                     offset: d.has("offset") ? try d.point("offset") : Point(0, 0))
        } : []
    }

    private func frame(_ f: Fields) throws(MalformedServerMessage) -> Frame {
        let base: UInt64?
        switch f.raw("base") {
        case .null?: base = nil
        default: base = try f.tick("base")
        }
        guard case let .array(rows)? = f.raw("bodies") else { throw MalformedServerMessage() }
        var bodies: [Frame.Body] = []
        bodies.reserveCapacity(rows.count)
        for row in rows {
            guard case let .array(v) = row, v.count == 4 else { throw MalformedServerMessage() }
            var n: [Int64] = []
            for element in v {
                guard case let .number(value) = element, value == value.rounded(),
                      value.magnitude <= 9_007_199_254_740_992 else { throw MalformedServerMessage() }
                n.append(Int64(value))
            }
            bodies.append(Frame.Body(id: Int(n[0]), x: n[1], y: n[2], angle: n[3]))
        }
        var frame = Frame(tick: try f.tick("tick"), time: try f.number("time"), base: base, paused: try f.bool("paused"),
                          clients: f.has("clients") ? try f.int("clients") : 0, bodies: bodies, drags: try drags(f))
        if f.has("held") { frame.held = try f.bool("held") }
        return frame
    }
}

/// Typed access for `ServerMessageDecoder`: a missing field or a wrong type throws.
struct Fields {
    let members: [(String, JSONValue)]

    init(_ members: [(String, JSONValue)]) { self.members = members }

    func raw(_ key: String) -> JSONValue? {
        for (name, value) in members where name == key { return value }
        return nil
    }

    func has(_ key: String) -> Bool { raw(key) != nil }

    func number(_ key: String) throws(MalformedServerMessage) -> Double {
        guard case let .number(value)? = raw(key) else { throw MalformedServerMessage() }
        return value
    }

    func int(_ key: String) throws(MalformedServerMessage) -> Int {
        let value = try number(key)
        guard value == value.rounded(), value.magnitude <= 9_007_199_254_740_992 else { throw MalformedServerMessage() }
        return Int(value)
    }

    func tick(_ key: String) throws(MalformedServerMessage) -> UInt64 {
        let value = try int(key)
        guard value >= 0 else { throw MalformedServerMessage() }
        return UInt64(value)
    }

    func string(_ key: String) throws(MalformedServerMessage) -> String {
        guard case let .string(value)? = raw(key) else { throw MalformedServerMessage() }
        return value
    }

    func bool(_ key: String) throws(MalformedServerMessage) -> Bool {
        guard case let .bool(value)? = raw(key) else { throw MalformedServerMessage() }
        return value
    }

    func object(_ key: String) throws(MalformedServerMessage) -> Fields {
        guard case let .object(value)? = raw(key) else { throw MalformedServerMessage() }
        return Fields(value)
    }

    func objects(_ key: String) throws(MalformedServerMessage) -> [Fields] {
        guard case let .array(elements)? = raw(key) else { throw MalformedServerMessage() }
        var result: [Fields] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard case let .object(value) = element else { throw MalformedServerMessage() }
            result.append(Fields(value))
        }
        return result
    }

    func point(_ key: String) throws(MalformedServerMessage) -> Point {
        let object = try object(key)
        return Point(try object.number("x"), try object.number("y"))
    }

    func pairs(_ key: String) throws(MalformedServerMessage) -> [Point] {
        guard case let .array(elements)? = raw(key) else { throw MalformedServerMessage() }
        var points: [Point] = []
        points.reserveCapacity(elements.count)
        for element in elements {
            guard case let .array(pair) = element, pair.count == 2,
                  case let .number(x) = pair[0], case let .number(y) = pair[1] else { throw MalformedServerMessage() }
            points.append(Point(x, y))
        }
        return points
    }
}
