import Dynamics

/// One scene of `dynbench physics`: builds its items and behaviors in a fresh animator and, for scenes with a
/// motor, drives it before every step. Geometry is given in Box2D's units (metres, y up) and converted with
/// `BenchUnits`, so each file reads like the scene it reproduces (docs/ARCHITECTURE.md, "Benchmark scenes").
protocol BenchScene: Sendable {
    /// The name on the command line (`--scene NAME`).
    static var name: String { get }
    /// The value of `--size` when it is not given.
    static var defaultSize: Int { get }
    /// What `--size` counts, for `--help`.
    static var sizeMeaning: String { get }
    /// Adds the scene to `animator` (which has no items or behaviors yet).
    static func build(_ animator: DynamicAnimator, size: Int) throws -> BuiltScene
}

/// What a scene built: the movable items (timed and measured) and what runs before each step.
struct BuiltScene {
    /// The scene's dynamic items in creation order (statics and motor-driven parts excluded).
    var bodies: [ItemID]
    /// Called before every `step()`: drives motors (a velocity motor re-sets an angular velocity).
    var beforeStep: (DynamicAnimator) throws -> Void = { _ in }
}

/// Box2D's units to dyn's: 100 pt per metre, y down, so a counter-clockwise turn in Box2D is a negative
/// angular velocity here.
enum BenchUnits {
    static let pointsPerMetre = 100.0

    /// A point given in metres with y up.
    static func point(_ x: Double, _ y: Double) -> Vec2 { Vec2(x * pointsPerMetre, -y * pointsPerMetre) }

    /// A length in metres.
    static func length(_ metres: Double) -> Double { metres * pointsPerMetre }

    /// A counter-clockwise angular velocity in rad/s (y up) as dyn's (y down).
    static func angularVelocity(_ ccw: Double) -> Double { -ccw }

    /// Box2D's default shape material: density 1, friction 0.6, restitution 0.
    static let material = ItemProperties(elasticity: 0, friction: 0.6, density: 1)

    static var staticMaterial: ItemProperties {
        var p = material
        p.anchored = true
        return p
    }
}

/// A velocity motor for an item pinned at a point: before each step its angular velocity is set to `speed`
/// (dyn has no joint motor; with an unlimited torque Box2D's motor holds the same speed).
struct VelocityMotor {
    let item: ItemID
    let speed: Double

    func drive(_ animator: DynamicAnimator) throws {
        guard let state = animator.item(item) else { return }
        let missing = speed - state.angularVelocity
        if missing != 0 { try animator.addAngularVelocity(missing, to: item) }
    }
}
