/// Maps a message object's members to a `ClientCommand`, validating every field (docs/PROTOCOL.md).
/// Unknown extra fields are ignored; camelCase property names are accepted beside the snake_case ones.
struct ClientCommandDecoder {
    let fields: FieldReader

    func decode() throws(ProtocolError) -> ClientCommand {
        guard let raw = fields.value("type") else { throw fields.missing("type") }
        guard case let .string(type) = raw else { throw fields.mistyped("type", "a string", raw) }
        switch type {
        case "hello":
            return .hello(name: try fields.optionalString("name"), token: try fields.optionalString("token"),
                          protocolVersion: try fields.optionalInteger("protocol"), subscribe: try helloSubscription(),
                          room: try fields.optionalString("room"), roomToken: try fields.optionalString("room_token"))
        case "ping": return .ping(t: fields.value("t"))
        case "tap":
            return .tap(x: try fields.number("x"), y: try fields.number("y"), body: try fields.optionalBody(),
                        mode: try fields.optionalName("mode", as: PushModeName.self) ?? .continuous)
        case "push": return try push()
        case "drag": return try drag()
        case "snap": return try snap()
        case "set":
            let body = try fields.body()
            let patch = try properties()
            guard !patch.isEmpty else { throw ProtocolError(.badMessage, "set needs at least one item property") }
            return .set(body: body, patch: patch)
        case "gravity": return .gravity(try gravity())
        case "collision": return .collision(mode: try fields.name("mode", as: CollisionModeName.self))
        case "spawn": return try spawn()
        case "remove": return .remove(body: try fields.body())
        case "scene": return .scene(name: try fields.string("name"))
        case "subscribe": return .subscribe(try SubscriptionDecoder(fields: fields).decode())
        case "attach": return try attach()
        case "anchor": return try anchor()
        case "detach": return .detach(attachment: try fields.objectID("attachment"))
        case "field": return try field()
        case "unfield": return try unfield()
        case "velocity": return try velocity()
        case "boundary": return try boundary()
        case "bounds": return try bounds()
        case "group": return try group()
        case "ungroup": return .ungroup(group: try fields.objectID("group"))
        case "pause": return .pause
        case "resume": return .resume
        case "step": return try step()
        case "join":
            return .join(room: try fields.string("room"), scene: try fields.optionalString("scene"),
                         roomToken: try fields.optionalString("room_token"))
        case "rooms": return .rooms
        case "hash": return .hash
        case "checkpoint": return .checkpoint(name: try fields.string("name"))
        case "restore": return .restore(name: try fields.string("name"))
        default: throw ProtocolError(.unknownType, "unknown message type \(quoted(type))")
        }
    }

    private func helloSubscription() throws(ProtocolError) -> SubscriptionChange? {
        guard let raw = fields.value("subscribe") else { return nil }
        guard case let .object(members) = raw else { throw fields.mistyped("subscribe", "an object", raw) }
        return try SubscriptionDecoder(fields: FieldReader(members: members)).decode()
    }

    private func push() throws(ProtocolError) -> ClientCommand {
        let body = try fields.body()
        let direction = try pushDirection()
        let mode = try fields.optionalName("mode", as: PushModeName.self)
        let active = try fields.optionalBool("active")
        let offset = try fields.optionalPoint("offset")
        if direction == nil && mode == nil && active == nil && offset == nil {
            throw ProtocolError(.badMessage, "push needs angle+magnitude or dx+dy (or mode, active, offset)")
        }
        return .push(body: body, direction: direction, mode: mode, active: active, offset: offset)
    }

    private func pushDirection() throws(ProtocolError) -> PushDirection? {
        let byAngle = fields.has("angle") || fields.has("magnitude")
        let byVector = fields.has("dx") || fields.has("dy")
        if byAngle && byVector {
            throw ProtocolError(.badMessage, "give either angle+magnitude or dx+dy, not both")
        }
        if byAngle { return .angle(try fields.number("angle"), magnitude: try fields.number("magnitude")) }
        if byVector { return .vector(dx: try fields.number("dx"), dy: try fields.number("dy")) }
        return nil
    }

    private func drag() throws(ProtocolError) -> ClientCommand {
        let phase = try fields.name("phase", as: DragPhase.self)
        let x = try fields.optionalNumber("x")
        let y = try fields.optionalNumber("y")
        let body = try fields.optionalBody()
        if phase != .end {
            if x == nil { throw fields.missing("x") }
            if y == nil { throw fields.missing("y") }
        }
        return .drag(phase: phase, x: x, y: y, body: body)
    }

    private func snap() throws(ProtocolError) -> ClientCommand {
        let body = try fields.body()
        if try fields.optionalBool("active") == false { return .unsnap(body: body) }
        return .snap(body: body, x: try fields.number("x"), y: try fields.number("y"),
                     damping: try fields.optionalUnit("damping"))
    }

    private func gravity() throws(ProtocolError) -> GravityChange {
        let magnitude = try fields.optionalNumber("magnitude")
        let byVector = fields.has("dx") || fields.has("dy")
        if byVector && fields.has("angle") {
            throw ProtocolError(.badMessage, "give either dx+dy or angle, not both")
        }
        if byVector { return .vector(dx: try fields.number("dx"), dy: try fields.number("dy"), magnitude: magnitude) }
        if let angle = try fields.optionalNumber("angle") { return .angle(angle, magnitude: magnitude) }
        if let magnitude { return .magnitude(magnitude) }
        throw ProtocolError(.badMessage, "gravity needs dx+dy, angle or magnitude")
    }

    private func spawn() throws(ProtocolError) -> ClientCommand {
        guard let rawShape = fields.value("shape") else { throw fields.missing("shape") }
        guard case let .string(shapeName) = rawShape else { throw fields.mistyped("shape", "a string", rawShape) }
        let shape: ShapeName
        var width: Double, height: Double
        switch shapeName {
        case "rect", "ellipse":
            shape = shapeName == "rect" ? .rect : .ellipse
            width = try fields.size("width")
            height = try fields.size("height")
        case "polygon":
            let points = try fields.polygonPoints("points")
            shape = .polygon(points)
            // A polygon's size defaults to its points' bounding box.
            width = fields.has("width") ? try fields.size("width") : spanOf(points.map(\.x))
            height = fields.has("height") ? try fields.size("height") : spanOf(points.map(\.y))
            guard width > 0, width <= FieldReader.maxSize, height > 0, height <= FieldReader.maxSize else {
                throw fields.invalid("points", "must span more than 0 and at most 100000 points each way")
            }
        default:
            throw fields.invalid("shape", "must be one of \"rect\", \"ellipse\", \"polygon\"")
        }
        return .spawn(shape: shape, width: width, height: height, x: try fields.number("x"), y: try fields.number("y"),
                      angle: try fields.optionalNumber("angle"), vx: try fields.optionalNumber("vx"),
                      vy: try fields.optionalNumber("vy"), patch: try properties())
    }

    private func spanOf(_ values: [Double]) -> Double {
        (values.max() ?? 0) - (values.min() ?? 0)
    }

    /// The item properties present in the message (all optional), range-checked.
    private func properties() throws(ProtocolError) -> PropertyPatch {
        var patch = PropertyPatch()
        patch.elasticity = try fields.optionalUnit("elasticity")
        patch.friction = try fields.optionalUnit("friction")
        if let density = try fields.optionalNumber("density") {
            guard density > 0 else { throw fields.invalid("density", "must be > 0") }
            patch.density = density
        }
        patch.resistance = try nonNegative("resistance", alias: "resistance")
        patch.angularResistance = try nonNegative("angular_resistance", alias: "angularResistance")
        patch.allowsRotation = try fields.optionalBool(fields.has("allows_rotation") ? "allows_rotation" : "allowsRotation")
        patch.anchored = try fields.optionalBool("anchored")
        patch.charge = try fields.optionalNumber("charge")
        if let color = try fields.optionalString("color") {
            guard isHexColor(color) else { throw fields.invalid("color", "must be \"#rrggbb\"") }
            patch.color = color
        }
        return patch
    }

    private func nonNegative(_ key: String, alias: String) throws(ProtocolError) -> Double? {
        let name = fields.has(key) ? key : alias
        guard let value = try fields.optionalNumber(name) else { return nil }
        guard value >= 0 else { throw fields.invalid(name, "must be >= 0") }
        return value
    }

    private func isHexColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
    }
}
