/// The kind of a field (UIFieldBehavior) as named on the wire (docs/UIKIT.md, Fields).
public enum FieldKindName: String, Sendable, CaseIterable {
    case linearGravity = "linear_gravity"
    case radialGravity = "radial_gravity"
    case spring
    case drag
    case velocity
    case vortex
    case noise
    case turbulence
    case electric
    case magnetic
}

/// Where a field acts, centred on its position: everywhere, inside a circle, or inside a rectangle;
/// `inverse` turns the region inside out (the field acts everywhere but there).
public struct FieldRegionSpec: Equatable, Sendable {
    public enum Shape: Equatable, Sendable {
        case infinite
        case radius(Double)
        case rect(width: Double, height: Double)
    }

    public var shape: Shape
    public var inverse: Bool

    public init(_ shape: Shape, inverse: Bool = false) {
        self.shape = shape
        self.inverse = inverse
    }

    public static let infinite = FieldRegionSpec(.infinite)
}

/// A field's parameters as carried by `field`: on creation every missing one takes its default (docs/
/// PROTOCOL.md, `field`); on update only the present ones change. Decoded values are range-checked:
/// falloff, min_radius and animation_speed >= 0, smoothness 0...1, region sizes > 0, body ids positive.
public struct FieldParameters: Equatable, Sendable {
    public var x: Double?
    public var y: Double?
    public var strength: Double?
    public var falloff: Double?
    public var minRadius: Double?
    public var region: FieldRegionSpec?
    public var direction: DirectionVector?
    public var smoothness: Double?
    public var animationSpeed: Double?
    /// The items the field acts on; nil = every item.
    public var bodies: [Int]?

    public init(x: Double? = nil, y: Double? = nil, strength: Double? = nil, falloff: Double? = nil,
                minRadius: Double? = nil, region: FieldRegionSpec? = nil, direction: DirectionVector? = nil,
                smoothness: Double? = nil, animationSpeed: Double? = nil, bodies: [Int]? = nil) {
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

    /// True when only the position is given: moving a field is interaction, not a structural change.
    public var movesOnly: Bool {
        var rest = self
        rest.x = nil
        rest.y = nil
        return rest == FieldParameters()
    }
}
