/// One persistent point of a contact's manifold. Anchors are relative to the body centers, in world
/// orientation, fixed for the step (Box2D v3's soft step); the accumulated impulses warm-start the next step.
/// The solver works on its compact copy, `ConstraintPoint`.
struct ContactPoint {
    var anchorA = Vec2.zero
    var anchorB = Vec2.zero
    /// The separation when the manifold was computed.
    var baseSeparation = 0.0
    /// The separation now: `baseSeparation`, or for a recycled manifold that moved on by the bodies' motion
    /// since (Engine/ContactRecycling.swift). What the solver and the touching state read.
    var separation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var id: UInt32 = 0
}

/// A persistent contact between a body and another body or a boundary segment. It is created when the fat
/// boxes of its two broad-phase proxies begin to overlap and destroyed when they stop (or when the pair may no
/// longer collide), and keeps its id (its index in `PhysicsWorld.contacts`) all its life, so that impulses
/// warm-start the next step. Only persistent data (manifold, impulses, material, touching state): the per-step
/// solver data lives in `ContactConstraint`. A freed slot has `bodyA == -1` (and no points) until reused.
struct Contact {
    /// Body index; the smaller one for two bodies (so events name the smaller item id first). -1: free slot.
    var bodyA: Int32
    /// Body index, or -1 for a boundary segment (a static proxy).
    var bodyB: Int32
    var segment: Int32
    /// The two broad-phase proxy keys (Engine/BroadPhase.swift): the fat boxes tested each update and the key
    /// of the pair map.
    var proxyA: Int32
    var proxyB: Int32
    var normal = Vec2.zero
    var pointCount: Int32 = 0
    var p0 = ContactPoint()
    var p1 = ContactPoint()
    var friction = 0.0
    var restitution = 0.0
    /// Event state: true once the surfaces touch (with hysteresis), reported as began/ended.
    var touching = false
    /// The step's predicted motion carries the two shapes past each other without their meeting
    /// (Engine/PassingContacts.swift): the contact keeps its points but the solver skips it this step.
    var passes = false
    /// Where the two bodies were when the manifold was computed, for recycling it (Engine/ContactRecycling.swift).
    var recycle = RecycleCache()

    var minSeparation: Double {
        pointCount == 0 ? .infinity : (pointCount == 1 ? p0.separation : min(p0.separation, p1.separation))
    }
}

/// A contact's links in the per-body contact lists (doubly linked through the contact ids, Box2D's contact
/// edges): `A` links it into `bodyA`'s list, `B` into `bodyB`'s (unused for a boundary contact). The body
/// indices are repeated here so that walking a list reads only these 24 bytes per contact.
struct ContactEdges {
    var bodyA: Int32 = -1
    var bodyB: Int32 = -1
    var prevA: Int32 = -1
    var nextA: Int32 = -1
    var prevB: Int32 = -1
    var nextB: Int32 = -1
}
