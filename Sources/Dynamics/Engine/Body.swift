/// The hot simulation record of one item. Bodies live in one contiguous array in insertion order, so the
/// array index order equals the id order; `isStatic` bodies (anchored items) never move.
struct Body {
    var id: ItemID
    var center: Vec2
    var angle: Double
    var rot: Rot
    var velocity: Vec2
    var angularVelocity: Double
    var invMass: Double
    var invInertia: Double
    var isStatic: Bool
    var awake: Bool
    var sleepTime: Double
    var fixedRotation: Bool

    // Shape: a circle of `radius`, or `vertexCount` vertices starting at `vertexStart` in the vertex pools.
    var isCircle: Bool
    var radius: Double
    var vertexStart: Int
    var vertexCount: Int
    var boundingRadius: Double
    var innerRadius: Double

    var elasticity: Double
    var friction: Double
    var linearDamping: Double
    var angularDamping: Double
    /// The center of mass in the item's frame, relative to `center` (zero for symmetric shapes). The
    /// solver moves and turns the body about it; `center` (the item's reference point) follows.
    var localCentroid: Vec2

    // Per-step inputs set by the animator's behaviors.
    /// Acceleration from gravity behaviors (pt/s²); zero for snapped items.
    var gravity: Vec2 = .zero
    /// Force accumulated from continuous pushes this step (mass·pt/s²) and its torque.
    var force: Vec2 = .zero
    var torque: Double = 0
    /// True while something (a continuous push) keeps the body from sleeping.
    var keepAwake = false

    // Collision filtering: bit k set = collision behavior slot k enables item/boundary contacts for the body.
    var itemMask: UInt64 = 0
    var boundaryMask: UInt64 = 0
    /// Bit set of collision behavior slots whose reference bounds confine the body (for the escape guard).
    var boundsMask: UInt64 = 0
    /// Item group (0 = none): bodies of one group never collide with each other.
    var group: Int32 = 0

    // Island membership (Engine/Island.swift): -1 for a static body, which belongs to no island.
    /// The island the body belongs to.
    var island: Int32 = -1
    /// The body's position in its island's `bodies`.
    var islandIndex: Int32 = -1

    var isDynamicAwake: Bool { awake && !isStatic }

    /// The center of mass in world coordinates.
    @inline(__always) var centerOfMass: Vec2 { localCentroid == .zero ? center : center + rot.rotate(localCentroid) }

    /// A point given in the item's frame relative to its center, as a lever arm from the center of mass.
    @inline(__always) func lever(_ local: Vec2) -> Vec2 { rot.rotate(local - localCentroid) }
}

/// Cold per-item data, only read by queries.
struct BodyRecord {
    var shape: ItemShape
    var width: Double
    var height: Double
    var properties: ItemProperties
    var mass: Double
    var inertia: Double
    var geometry: ShapeGeometry
}

/// A boundary segment: a static two-vertex polygon owned by a collision behavior slot.
struct Segment {
    var a: Vec2
    var b: Vec2
    /// Index into the world's boundary names ("bounds" for the reference bounds).
    var nameIndex: Int
    var slot: Int
    /// Stable key for warm starting; negative so that it never equals an item id.
    var key: Int
    var vertexStart: Int
}

/// An axis-aligned box used by the broad phase.
struct AABB {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    @inline(__always) func overlaps(_ o: AABB) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }
}
