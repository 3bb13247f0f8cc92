/// How a push acts: a force every step while active, or a single impulse.
public enum PushMode: Sendable {
    case continuous
    case instantaneous
}

/// UIPushBehavior: magnitude 1 on a 100×100 item of density 1 (mass 1) gives 100 pt/s² (continuous) or a
/// velocity change of 100 pt/s (instantaneous); in general a = 100 × magnitude / mass. `angle` and
/// `magnitude` are the stored values; `pushDirection` is derived from them and setting it updates both.
/// An instantaneous push fires once on the next step and then reads back with `active == false`.
public struct PushBehavior: Equatable, Sendable {
    /// Force (or impulse) of magnitude 1, in mass·pt/s² (or mass·pt/s).
    public static let unitForce = 100.0

    public var items: [ItemID]
    public var mode: PushMode
    public var active: Bool = true
    /// Radians from +x toward +y.
    public var angle: Double = 0
    /// Strength; negative values push the opposite way.
    public var magnitude: Double = 0
    /// Point of application per item: an offset from the center in the item's frame (turns the item).
    public var targetOffsets: [ItemID: Vec2] = [:]

    public init(items: [ItemID], mode: PushMode) {
        self.items = items
        self.mode = mode
    }

    /// (dx, dy) = magnitude × (cos angle, sin angle). Setting it sets angle and magnitude (the angle is kept
    /// when the vector is zero).
    public var pushDirection: Vec2 {
        get { Vec2(cosine(angle), sine(angle)) * magnitude }
        set {
            magnitude = newValue.length
            if newValue.x != 0 || newValue.y != 0 { angle = arcTangent2(newValue.y, newValue.x) }
        }
    }

    func validate() throws(DynamicsError) {
        try checkFinite(angle, "push angle")
        try checkFinite(magnitude, "push magnitude")
        for (_, o) in targetOffsets { try checkCoordinate(o, "push target offset") }
    }
}
