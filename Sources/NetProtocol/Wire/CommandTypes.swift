/// A push's mode (docs/UIKIT.md): a force every step while active, or one impulse.
public enum PushModeName: String, Sendable, CaseIterable {
    case continuous, instantaneous
}

/// The phase of a `drag` command.
public enum DragPhase: String, Sendable, CaseIterable {
    case begin, move, end
}

/// The collision behavior's mode as named on the wire.
public enum CollisionModeName: String, Sendable, CaseIterable {
    case items, boundaries, everything
}

/// An item's collision shape. Polygon points are relative to the item's center; decoded polygons always
/// have 3...64 points.
public enum ShapeName: Equatable, Sendable {
    case rect
    case ellipse
    case polygon([Point])

    /// The wire name: `rect`, `ellipse` or `polygon`.
    public var wireName: String {
        switch self {
        case .rect: return "rect"
        case .ellipse: return "ellipse"
        case .polygon: return "polygon"
        }
    }
}

/// A point or offset in world points (x right, y down).
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// A partial set of item properties (UIDynamicItemBehavior), as carried by `set` and `spawn`.
/// Decoded patches are range-checked: elasticity and friction in 0...1, density > 0, resistances >= 0,
/// color `#rrggbb`.
public struct PropertyPatch: Equatable, Sendable {
    public var elasticity: Double?
    public var friction: Double?
    public var density: Double?
    public var resistance: Double?
    public var angularResistance: Double?
    public var allowsRotation: Bool?
    public var anchored: Bool?
    /// `"#rrggbb"`, hex digits in either case.
    public var color: String?
    /// Electric/magnetic field charge (docs/UIKIT.md, Fields): any finite number.
    public var charge: Double?

    public init(elasticity: Double? = nil, friction: Double? = nil, density: Double? = nil, resistance: Double? = nil,
                angularResistance: Double? = nil, allowsRotation: Bool? = nil, anchored: Bool? = nil, color: String? = nil,
                charge: Double? = nil) {
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
        self.angularResistance = angularResistance
        self.allowsRotation = allowsRotation
        self.anchored = anchored
        self.color = color
        self.charge = charge
    }

    /// True when no property is set.
    public var isEmpty: Bool { self == PropertyPatch() }
}

/// A push direction: an angle (radians, from +x toward +y) with a magnitude, or a vector whose length is the
/// magnitude.
public enum PushDirection: Equatable, Sendable {
    case angle(Double, magnitude: Double)
    case vector(dx: Double, dy: Double)
}

/// A change of the gravity behavior.
public enum GravityChange: Equatable, Sendable {
    /// Direction from (dx, dy); `magnitude`, when given, overrides the vector's length.
    case vector(dx: Double, dy: Double, magnitude: Double?)
    /// Direction as an angle; `magnitude`, when given, replaces the current one.
    case angle(Double, magnitude: Double?)
    /// Only the magnitude changes; the direction stays.
    case magnitude(Double)
}
