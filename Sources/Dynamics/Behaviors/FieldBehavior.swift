/// The kinds of UIFieldBehavior (iOS 9). Formulas and units: docs/UIKIT.md, Fields.
public enum FieldKind: String, Sendable, CaseIterable {
    case linearGravity, radialGravity, spring, drag, velocity, vortex, noise, turbulence, electric, magnetic
}

/// Where a field acts, relative to its position: everywhere, inside a circle or an axis-aligned rectangle
/// centred on it; `inverse` acts everywhere but there.
public indirect enum FieldRegion: Equatable, Sendable {
    case infinite
    case circle(radius: Double)
    case rect(width: Double, height: Double)
    case inverse(FieldRegion)
    case union(FieldRegion, FieldRegion)
    case intersection(FieldRegion, FieldRegion)

    /// Whether a point at `d` from the field's position is inside.
    public func contains(_ d: Vec2) -> Bool {
        switch self {
        case .infinite: return true
        case .circle(let r): return d.lengthSquared <= r * r
        case .rect(let w, let h): return abs(d.x) <= w / 2 && abs(d.y) <= h / 2
        case .inverse(let inner): return !inner.contains(d)
        case .union(let a, let b): return a.contains(d) || b.contains(d)
        case .intersection(let a, let b): return a.contains(d) && b.contains(d)
        }
    }

    func validate() throws(DynamicsError) {
        switch self {
        case .infinite: return
        case .circle(let r):
            guard r.isFinite, r > 0, r <= maxCoordinate else { throw .invalidValue("region radius must be > 0") }
        case .rect(let w, let h):
            guard w.isFinite, h.isFinite, w > 0, h > 0, w <= maxCoordinate, h <= maxCoordinate else {
                throw .invalidValue("region width and height must be > 0")
            }
        case .inverse(let inner): try inner.validate()
        case .union(let a, let b), .intersection(let a, let b):
            try a.validate()
            try b.validate()
        }
    }
}

/// UIFieldBehavior: a force or acceleration field at `position` acting on `items` inside `region`.
/// `strength` (default 1), `falloff` (>= 0: the field scales with max(r, minimumRadius)^-falloff, r in
/// meters of 100 pt), `minimumRadius` (pt), `direction` (linear gravity and velocity: m/s² or m/s, i.e. units
/// of 100 pt/s² or 100 pt/s; drag: the velocity it drags toward), `smoothness` (0...1) and `animationSpeed`
/// (Hz) for noise and turbulence, which are deterministic for a given `seed`.
public struct FieldBehavior: Equatable, Sendable {
    public var kind: FieldKind
    public var position: Vec2
    public var strength: Double = 1
    public var falloff: Double = 0
    public var minimumRadius: Double = 0
    public var region: FieldRegion = .infinite
    public var direction: Vec2
    public var smoothness: Double = 0
    public var animationSpeed: Double = 0
    public var items: ItemSelection = .all
    public var seed: UInt64 = 0

    /// A field with UIKit's defaults; `direction` defaults to (0, 1) (down) for linear gravity, else zero.
    public init(kind: FieldKind, position: Vec2, strength: Double = 1, items: ItemSelection = .all) {
        self.kind = kind
        self.position = position
        self.strength = strength
        self.items = items
        self.direction = kind == .linearGravity ? Vec2(0, 1) : .zero
    }

    func validate() throws(DynamicsError) {
        try checkCoordinate(position, "field position")
        try checkFinite(strength, "field strength")
        guard abs(strength) <= maxCoordinate else { throw .invalidValue("field strength must be within ±1e9") }
        guard falloff.isFinite, falloff >= 0, falloff <= 16 else { throw .invalidValue("falloff must be within 0...16") }
        guard minimumRadius.isFinite, minimumRadius >= 0, minimumRadius <= maxCoordinate else {
            throw .invalidValue("minimum radius must be >= 0")
        }
        try region.validate()
        try checkCoordinate(direction, "field direction")
        try checkUnit(smoothness, "smoothness")
        guard animationSpeed.isFinite, animationSpeed >= 0, animationSpeed <= 1e6 else {
            throw .invalidValue("animation speed must be >= 0")
        }
    }
}
