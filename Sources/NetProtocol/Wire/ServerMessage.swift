/// One server -> client line of docs/PROTOCOL.md.
///
/// `encoded()` writes the exact wire shape (snake_case fields, `type` first) as one line ending in `"\n"`;
/// `decode` reads it back, lenient about number formats but strict about types, ignoring unknown fields, and
/// returns nil for an unknown `type` or a broken line. Snapshots use `SnapshotEncoder`'s rounding.
public enum ServerMessage: Equatable, Sendable {
    case welcome(Welcome)
    case scene(SceneInfo)
    case snapshot(Snapshot)
    /// A compact snapshot (`snapshots: compact`), relative to the frame before it.
    case frame(Frame)
    /// A packed frame (`snapshots: packed`): its tick and the frame's bytes, decoded by `PackedApplier`.
    case packed(tick: UInt64, data: [UInt8])
    /// `fields` are the command's result fields (such as `body`), in wire order.
    case ack(id: MessageID?, fields: [(String, JSONValue)])
    case error(ProtocolError)
    case pong(t: JSONValue?, tick: UInt64, id: MessageID?)
    case bye(reason: String)
    case contact(ContactReport)
    case notice(Notice)
    /// The room is owned by another server of the fleet (docs/PROTOCOL.md, A fleet of servers).
    case redirect(Redirect)

    public static func == (lhs: ServerMessage, rhs: ServerMessage) -> Bool {
        switch (lhs, rhs) {
        case let (.welcome(a), .welcome(b)): return a == b
        case let (.scene(a), .scene(b)): return a == b
        case let (.snapshot(a), .snapshot(b)): return a == b
        case let (.frame(a), .frame(b)): return a == b
        case let (.packed(tickA, dataA), .packed(tickB, dataB)): return tickA == tickB && dataA == dataB
        case let (.ack(idA, fieldsA), .ack(idB, fieldsB)): return idA == idB && JSONValue.membersEqual(fieldsA, fieldsB)
        case let (.error(a), .error(b)): return a == b
        case let (.pong(tA, tickA, idA), .pong(tB, tickB, idB)): return tA == tB && tickA == tickB && idA == idB
        case let (.bye(a), .bye(b)): return a == b
        case let (.contact(a), .contact(b)): return a == b
        case let (.notice(a), .notice(b)): return a == b
        case let (.redirect(a), .redirect(b)): return a == b
        default: return false
        }
    }

    public func encoded() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        switch self {
        case let .welcome(welcome): ServerMessage.write(welcome, into: &w)
        case let .scene(scene): SceneWriter.write(scene, into: &w)
        case let .snapshot(snapshot):
            var encoder = SnapshotEncoder()
            return snapshot.bodies.withUnsafeBufferPointer { bodies in
                encoder.encode(tick: snapshot.tick, time: snapshot.time, paused: snapshot.paused, held: snapshot.held,
                               clients: snapshot.clients, bodies: bodies, drags: snapshot.drags)
            }
        case let .frame(frame):
            return FrameEncoder.encode(frame).array
        case let .packed(tick, data):
            return PackedLine.encode(tick: tick, frame: data)
        case let .ack(id, fields):
            w.beginObject()
            w.key("type"); w.string("ack")
            if let id { w.key("id"); w.id(id) }
            for (name, value) in fields where name != "type" && name != "id" { w.key(name); w.value(value) }
            w.endObject()
        case let .error(error):
            w.beginObject()
            w.key("type"); w.string("error")
            w.key("code"); w.string(error.code.rawValue)
            w.key("message"); w.string(error.message)
            if let id = error.id { w.key("id"); w.id(id) }
            w.endObject()
        case let .pong(t, tick, id):
            w.beginObject()
            w.key("type"); w.string("pong")
            if let t { w.key("t"); w.value(t) }
            w.key("tick"); w.uint(tick)
            if let id { w.key("id"); w.id(id) }
            w.endObject()
        case let .bye(reason):
            w.beginObject()
            w.key("type"); w.string("bye")
            w.key("reason"); w.string(reason)
            w.endObject()
        case let .contact(report): ServerMessage.write(report, into: &w)
        case let .notice(notice): ServerMessage.write(notice, into: &w)
        case let .redirect(redirect): redirect.write(into: &w)
        }
        w.newline()
        return w.bytes
    }

    private static func write(_ welcome: Welcome, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("welcome")
        w.key("protocol"); w.int(welcome.protocolVersion)
        w.key("client"); w.int(welcome.client)
        w.key("server"); w.string(welcome.server)
        w.key("world")
        w.beginObject()
        w.key("width"); w.number(welcome.worldWidth)
        w.key("height"); w.number(welcome.worldHeight)
        w.endObject()
        w.key("tick_hz"); w.number(welcome.tickHz)
        w.key("snapshot_hz"); w.number(welcome.snapshotHz)
        w.key("auth_required"); w.bool(welcome.authRequired)
        if let room = welcome.room { w.key("room"); w.string(room) }
        if let httpPort = welcome.httpPort { w.key("http_port"); w.int(httpPort) }
        w.endObject()
    }

    public static func decode(_ line: UnsafeRawBufferPointer) -> ServerMessage? {
        var scanner = JSONScanner(line, maxDepth: 64)
        guard let root = try? scanner.parseDocument(), scanner.deferredError == nil,
              case let .object(members) = root else { return nil }
        let id = scanner.topLevelIDNumberText.map(MessageID.number)
        return try? ServerMessageDecoder(members: members, numericID: id).decode()
    }

    public static func decode(_ line: [UInt8]) -> ServerMessage? {
        line.withUnsafeBytes { decode($0) }
    }

    public static func decode(_ line: String) -> ServerMessage? {
        var line = line
        return line.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }
}

/// Writes the `scene` message: numbers at full precision, property names in snake_case.
enum SceneWriter {
    static func write(_ scene: SceneInfo, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("scene")
        w.key("name"); w.string(scene.name)
        w.key("gravity")
        w.beginObject()
        w.key("dx"); w.number(scene.gravity.dx)
        w.key("dy"); w.number(scene.gravity.dy)
        w.key("magnitude"); w.number(scene.gravity.magnitude)
        w.endObject()
        w.key("collision_mode"); w.string(scene.collisionMode.rawValue)
        w.key("bodies")
        w.beginArray()
        for body in scene.bodies { write(body, into: &w) }
        w.endArray()
        w.key("boundaries")
        w.beginArray()
        for boundary in scene.boundaries {
            w.beginObject()
            w.key("id"); w.string(boundary.id)
            w.key("points"); ClientCommandEncoder.writePairs(boundary.points, into: &w)
            w.key("closed"); w.bool(boundary.closed)
            w.endObject()
        }
        w.endArray()
        w.key("attachments")
        w.beginArray()
        for attachment in scene.attachments { write(attachment, into: &w) }
        w.endArray()
        w.key("snaps")
        w.beginArray()
        for snap in scene.snaps {
            w.beginObject()
            w.key("body"); w.int(snap.body)
            w.key("point"); ClientCommandEncoder.writePoint(snap.point, into: &w)
            w.key("damping"); w.number(snap.damping)
            w.endObject()
        }
        w.endArray()
        writeExtras(scene, into: &w)
        w.endObject()
    }

    private static func write(_ body: BodyInfo, into w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.int(body.id)
        w.key("shape"); w.string(body.shape.wireName)
        w.key("width"); w.number(body.width)
        w.key("height"); w.number(body.height)
        w.key("elasticity"); w.number(body.elasticity)
        w.key("friction"); w.number(body.friction)
        w.key("density"); w.number(body.density)
        w.key("resistance"); w.number(body.resistance)
        w.key("angular_resistance"); w.number(body.angularResistance)
        w.key("allows_rotation"); w.bool(body.allowsRotation)
        w.key("anchored"); w.bool(body.anchored)
        w.key("color"); w.string(body.color)
        w.key("charge"); w.number(body.charge)
        if case let .polygon(points) = body.shape { w.key("points"); ClientCommandEncoder.writePairs(points, into: &w) }
        w.endObject()
    }

    private static func write(_ attachment: AttachmentInfo, into w: inout JSONWriter) {
        w.beginObject()
        if let id = attachment.id { w.key("id"); w.int(id) }
        w.key("kind"); w.string(attachment.kind.rawValue)
        w.key("body"); w.int(attachment.body)
        if let anchor = attachment.anchor { w.key("anchor"); ClientCommandEncoder.writePoint(anchor, into: &w) }
        if let toBody = attachment.toBody { w.key("to_body"); w.int(toBody) }
        w.key("offset"); ClientCommandEncoder.writePoint(attachment.offset, into: &w)
        if let toOffset = attachment.toOffset { w.key("to_offset"); ClientCommandEncoder.writePoint(toOffset, into: &w) }
        w.key("length"); w.number(attachment.length)
        w.key("frequency"); w.number(attachment.frequency)
        w.key("damping"); w.number(attachment.damping)
        writeAttachmentExtras(attachment, into: &w)
        w.endObject()
    }
}
