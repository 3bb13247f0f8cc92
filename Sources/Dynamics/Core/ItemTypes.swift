/// Identifies an item. Assigned by the animator from 1 upwards and never reused during the animator's life.
public typealias ItemID = Int

/// Identifies a behavior. Assigned by the animator from 1 upwards (separate counter), never reused.
public typealias BehaviorID = Int

/// The collision shape of an item. `polygon` points are relative to the item's center, in the item's frame,
/// and must form a convex polygon; `ellipse` is a true circle when width == height, otherwise a convex
/// polygon approximation.
public enum ItemShape: Equatable, Sendable {
    case rect
    case ellipse
    case polygon([Vec2])
}

/// Per-item physical properties (UIDynamicItemBehavior), with UIKit's defaults (docs/UIKIT.md).
/// Ranges are enforced by the animator, which throws `DynamicsError.invalidValue` for anything outside them.
public struct ItemProperties: Equatable, Sendable {
    /// Restitution, 0...1 (1 bounces back to the drop height).
    public var elasticity: Double = 0
    /// Coulomb friction, 0...1.
    public var friction: Double = 0
    /// Mass per area unit, > 0. Mass = density × area of the collision shape / 10 000 (docs/ENGINE.md).
    public var density: Double = 1
    /// Linear velocity damping, >= 0: `v *= 1 / (1 + dt × resistance)`.
    public var resistance: Double = 0
    /// Angular velocity damping, >= 0.
    public var angularResistance: Double = 0
    /// false: the item never rotates; its angle stays bit-exactly what it was.
    public var allowsRotation = true
    /// true: the item takes part in collisions but never moves.
    public var anchored = false
    /// Charge for electric and magnetic fields (docs/UIKIT.md, Fields): any finite number.
    public var charge = 0.0

    public init() {}

    public init(elasticity: Double = 0, friction: Double = 0, density: Double = 1, resistance: Double = 0,
                angularResistance: Double = 0, allowsRotation: Bool = true, anchored: Bool = false, charge: Double = 0) {
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
        self.angularResistance = angularResistance
        self.allowsRotation = allowsRotation
        self.anchored = anchored
        self.charge = charge
    }

    func validate() throws(DynamicsError) {
        try checkUnit(elasticity, "elasticity")
        try checkUnit(friction, "friction")
        guard density.isFinite, density > 0 else { throw .invalidValue("density must be finite and > 0") }
        guard resistance.isFinite, resistance >= 0 else { throw .invalidValue("resistance must be finite and >= 0") }
        guard angularResistance.isFinite, angularResistance >= 0 else {
            throw .invalidValue("angular resistance must be finite and >= 0")
        }
        try checkFinite(charge, "charge")
    }
}

/// Errors thrown by the animator. Every public mutation validates its input and throws instead of
/// letting a NaN, infinity or out-of-range value into the simulation.
public enum DynamicsError: Error, Equatable, Sendable {
    case invalidValue(String)
    case unknownItem(ItemID)
    case unknownBehavior(BehaviorID)
}

/// A snapshot of one item, copied out of the animator.
public struct ItemState: Sendable {
    public let id: ItemID
    public let shape: ItemShape
    public let width: Double
    public let height: Double
    public let center: Vec2
    public let angle: Double
    public let velocity: Vec2
    public let angularVelocity: Double
    public let properties: ItemProperties
    /// density × area of the collision shape / 10 000.
    public let mass: Double
}

/// The largest coordinate or size (in points) the animator accepts; keeps every derived quantity finite.
let maxCoordinate = 1e9

func checkUnit(_ v: Double, _ name: String) throws(DynamicsError) {
    guard v.isFinite, v >= 0, v <= 1 else { throw .invalidValue("\(name) must be within 0...1") }
}

func checkFinite(_ v: Double, _ name: String) throws(DynamicsError) {
    guard v.isFinite else { throw .invalidValue("\(name) must be finite") }
}

func checkCoordinate(_ v: Vec2, _ name: String) throws(DynamicsError) {
    guard v.isFinite, abs(v.x) <= maxCoordinate, abs(v.y) <= maxCoordinate else {
        throw .invalidValue("\(name) must be finite and within ±1e9 pt")
    }
}
