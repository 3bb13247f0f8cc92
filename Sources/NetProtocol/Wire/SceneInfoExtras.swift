/// A field as listed in `scene.fields`: its id and every parameter with its effective value.
public struct FieldInfo: Equatable, Sendable {
    public var id: Int
    public var kind: FieldKindName
    public var x: Double
    public var y: Double
    public var strength: Double
    public var falloff: Double
    public var minRadius: Double
    public var region: FieldRegionSpec
    public var direction: DirectionVector
    public var smoothness: Double
    public var animationSpeed: Double
    /// The items it acts on; nil = every item.
    public var bodies: [Int]?

    public init(id: Int, kind: FieldKindName, x: Double, y: Double, strength: Double = 1, falloff: Double = 0,
                minRadius: Double = 0, region: FieldRegionSpec = .infinite, direction: DirectionVector = DirectionVector(0, 0),
                smoothness: Double = 0, animationSpeed: Double = 0, bodies: [Int]? = nil) {
        self.id = id
        self.kind = kind
        self.x = x
        self.y = y
        self.strength = strength
        self.falloff = falloff
        self.minRadius = minRadius
        self.region = region
        self.direction = direction
        self.smoothness = smoothness
        self.animationSpeed = animationSpeed
        self.bodies = bodies
    }
}

/// The reference bounds as a boundary (`scene.bounds`): on or off, and their insets.
public struct BoundsInfo: Equatable, Sendable {
    public var enabled: Bool
    public var insets: BoundsInsets

    public init(enabled: Bool = true, insets: BoundsInsets = .zero) {
        self.enabled = enabled
        self.insets = insets
    }
}

/// An item group (`scene.groups`): bodies that move as one rigid composite.
public struct GroupInfo: Equatable, Sendable {
    public var id: Int
    public var bodies: [Int]

    public init(id: Int, bodies: [Int]) {
        self.id = id
        self.bodies = bodies
    }
}

extension SceneWriter {
    static func writeExtras(_ scene: SceneInfo, into w: inout JSONWriter) {
        if let caption = scene.caption { w.key("caption"); w.string(caption) }
        w.key("fields")
        w.beginArray()
        for field in scene.fields { write(field, into: &w) }
        w.endArray()
        w.key("bounds")
        w.beginObject()
        w.key("enabled"); w.bool(scene.bounds.enabled)
        w.key("insets"); ClientCommandEncoder.writeInsets(scene.bounds.insets, into: &w)
        w.endObject()
        w.key("groups")
        w.beginArray()
        for group in scene.groups {
            w.beginObject()
            w.key("id"); w.int(group.id)
            w.key("bodies"); ClientCommandEncoder.writeIDs(group.bodies, into: &w)
            w.endObject()
        }
        w.endArray()
    }

    private static func write(_ f: FieldInfo, into w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.int(f.id)
        w.key("kind"); w.string(f.kind.rawValue)
        w.key("x"); w.number(f.x)
        w.key("y"); w.number(f.y)
        w.key("strength"); w.number(f.strength)
        w.key("falloff"); w.number(f.falloff)
        w.key("min_radius"); w.number(f.minRadius)
        w.key("region"); ClientCommandEncoder.writeRegion(f.region, into: &w)
        w.key("direction"); ClientCommandEncoder.writeDirection(f.direction, into: &w)
        w.key("smoothness"); w.number(f.smoothness)
        w.key("animation_speed"); w.number(f.animationSpeed)
        if let bodies = f.bodies { w.key("bodies"); ClientCommandEncoder.writeIDs(bodies, into: &w) }
        w.endObject()
    }

    /// The fields an attachment has beyond protocol 1's: `id`, `kind`, and the kind's own parameters.
    static func writeAttachmentExtras(_ a: AttachmentInfo, into w: inout JSONWriter) {
        if let axis = a.axis { w.key("axis"); ClientCommandEncoder.writeDirection(axis, into: &w) }
        if let range = a.range { w.key("range"); ClientCommandEncoder.writeRange(range, into: &w) }
        if let point = a.point { w.key("point"); ClientCommandEncoder.writePoint(point, into: &w) }
        if let torque = a.frictionTorque { w.key("friction_torque"); w.number(torque) }
    }
}

extension ServerMessageDecoder {
    func sceneExtras(_ f: Fields, into scene: inout SceneInfo) throws(MalformedServerMessage) {
        if f.has("caption") { scene.caption = try f.string("caption") }
        if f.has("fields") { scene.fields = try f.objects("fields").map(fieldInfo) }
        if f.has("bounds") {
            let b = try f.object("bounds")
            scene.bounds = BoundsInfo(enabled: try b.bool("enabled"), insets: try insets(try b.object("insets")))
        }
        if f.has("groups") {
            scene.groups = try f.objects("groups").map { (g: Fields) throws(MalformedServerMessage) in
                GroupInfo(id: try g.int("id"), bodies: try ids(g, "bodies"))
            }
        }
    }

    private func insets(_ i: Fields) throws(MalformedServerMessage) -> BoundsInsets {
        BoundsInsets(top: try i.number("top"), left: try i.number("left"), bottom: try i.number("bottom"),
                     right: try i.number("right"))
    }

    private func ids(_ f: Fields, _ key: String) throws(MalformedServerMessage) -> [Int] {
        guard case let .array(elements)? = f.raw(key) else { throw MalformedServerMessage() }
        var result: [Int] = []
        for element in elements {
            guard case let .number(n) = element, n == n.rounded(), n.magnitude <= 9_007_199_254_740_992 else {
                throw MalformedServerMessage()
            }
            result.append(Int(n))
        }
        return result
    }

    private func fieldInfo(_ f: Fields) throws(MalformedServerMessage) -> FieldInfo {
        guard let kind = FieldKindName(rawValue: try f.string("kind")) else { throw MalformedServerMessage() }
        let r = try f.object("region")
        var shape = FieldRegionSpec.Shape.infinite
        if r.has("radius") { shape = .radius(try r.number("radius")) }
        if r.has("width") { shape = .rect(width: try r.number("width"), height: try r.number("height")) }
        let d = try f.object("direction")
        return FieldInfo(id: try f.int("id"), kind: kind, x: try f.number("x"), y: try f.number("y"),
                         strength: try f.number("strength"), falloff: try f.number("falloff"),
                         minRadius: try f.number("min_radius"),
                         region: FieldRegionSpec(shape, inverse: r.has("inverse") ? try r.bool("inverse") : false),
                         direction: DirectionVector(try d.number("dx"), try d.number("dy")),
                         smoothness: try f.number("smoothness"), animationSpeed: try f.number("animation_speed"),
                         bodies: f.has("bodies") ? try ids(f, "bodies") : nil)
    }

    /// An attachment's `id`, `kind` and kind parameters, where present.
    func attachmentExtras(_ a: Fields, into info: inout AttachmentInfo) throws(MalformedServerMessage) {
        if a.has("id") { info.id = try a.int("id") }
        if a.has("kind") {
            guard let kind = AttachmentKindName(rawValue: try a.string("kind")) else { throw MalformedServerMessage() }
            info.kind = kind
        }
        if a.has("axis") {
            let d = try a.object("axis")
            info.axis = DirectionVector(try d.number("dx"), try d.number("dy"))
        }
        if a.has("range") {
            let pair = try a.pairs2("range")
            info.range = ValueRange(pair.0, pair.1)
        }
        if a.has("point") { info.point = try a.point("point") }
        if a.has("friction_torque") { info.frictionTorque = try a.number("friction_torque") }
    }
}

extension Fields {
    /// `[a, b]`: two numbers.
    func pairs2(_ key: String) throws(MalformedServerMessage) -> (Double, Double) {
        guard case let .array(e)? = raw(key), e.count == 2, case let .number(a) = e[0], case let .number(b) = e[1] else {
            throw MalformedServerMessage()
        }
        return (a, b)
    }
}
