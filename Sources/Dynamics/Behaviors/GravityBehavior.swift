/// UIGravityBehavior: a constant acceleration on its items regardless of their mass.
/// `direction` is the primary value; its length is the magnitude, and magnitude 1 = 1000 pt/s².
public struct GravityBehavior: Equatable, Sendable {
    /// Acceleration of magnitude 1, in points per second squared.
    public static let pointsPerSecondSquared = 1000.0

    public var items: ItemSelection
    /// (dx, dy); its length is the magnitude.
    public var direction: Vec2

    public init(items: ItemSelection = .all, direction: Vec2 = Vec2(0, 1)) {
        self.items = items
        self.direction = direction
    }

    public init(items: ItemSelection = .all, angle: Double, magnitude: Double) {
        self.items = items
        self.direction = Vec2(cosine(angle), sine(angle)) * magnitude
    }

    /// Radians from +x toward +y. Setting it keeps the magnitude.
    public var angle: Double {
        get { arcTangent2(direction.y, direction.x) }
        set { direction = Vec2(cosine(newValue), sine(newValue)) * magnitude }
    }

    /// Length of `direction`. Setting it keeps the angle; a negative value reverses the direction.
    public var magnitude: Double {
        get { direction.length }
        set { direction = Vec2(cosine(angle), sine(angle)) * newValue }
    }

    /// The acceleration in pt/s².
    var acceleration: Vec2 { direction * Self.pointsPerSecondSquared }

    func validate() throws(DynamicsError) {
        guard direction.isFinite, acceleration.isFinite else {
            throw .invalidValue("gravity direction must be finite")
        }
    }
}
