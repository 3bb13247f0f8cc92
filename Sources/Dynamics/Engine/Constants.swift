/// Engine tuning, in points and seconds (100 pt = 1 m, so Box2D's metre-based values are scaled by 100).
enum Tuning {
    /// Allowed penetration scale (Box2D's 0.005 m).
    static let linearSlop = 0.5
    /// How far apart two shapes may be and still get contact points (Box2D v3's 4 × linear slop, 2 pt): fixed,
    /// never grown with speed (docs/ENGINE.md, "Only touching bodies interact"). Such a speculative point applies
    /// only the impulse that closes its gap within the step, so it acts only on shapes that really meet.
    static let speculativeDistance = 4 * linearSlop
    /// Centres closer than this are coincident: they are pushed apart along a direction derived from the two
    /// items' ids (`coincidentNormal`), not along their (meaningless) offset.
    static let coincidentDistance = 0.05
    /// An island never sleeps while one of its contacts overlaps by more than this (pt).
    static let restlessOverlap = 3.0
    /// A body with a contact overlapping by more than this (pt) at the start of a step is being pushed out: the
    /// step may not leave it faster than the faster of its own motion (its velocity and the accelerations known
    /// before the step) and `contactPushMaxVelocity` (docs/ENGINE.md, "Every pile separates"). Each overlapping
    /// pair pushes at up to that speed, and in a pile created at one point the pushes would otherwise add up.
    static let pushOutOverlap = 3.0
    /// The bounds guard never leaves an item farther than this outside its reference bounds (pt).
    static let boundsTolerance = 1.0
    /// Continuous collision (Engine/Continuous.swift): a body whose motion in a step exceeds
    /// `speculativeDistance + linearSlop` is swept against boundaries and anchored items (it could otherwise
    /// have skipped the speculative window); one whose motion exceeds `bulletFraction` of its inner radius is a
    /// bullet and is also swept against the other items. Time of impact stops it `linearSlop` before contact.
    static let bulletFraction = 0.5
    /// A world steps on its workers (`DynamicAnimator.workers`) only with at least this many awake bodies:
    /// below, handing the stages over costs more than it saves (docs/ENGINE.md, "Parallel step").
    static let parallelMinBodies = 300
    /// Solver sub-steps per step (Box2D v3 soft step).
    static let substeps = 4
    /// Hard caps that keep every state finite whatever the inputs.
    static let maxLinearSpeed = 40_000.0
    static let maxAcceleration = 1e9
    static let maxRotationPerSubstep = 0.25 * Double.pi
    /// Contact softness: stiffness (capped at a quarter of the sub-step rate), damping ratio, push-out speed.
    static let contactHertzCap = 45.0
    static let contactDampingRatio = 10.0
    static let contactPushMaxVelocity = 300.0
    /// Softness of rigid joints.
    static let jointDampingRatio = 2.0
    /// Material of boundaries, which UIKit never sets (Box2D's fixture defaults). Contacts mix materials as
    /// UIKit's engine does: friction sqrt(fA × fB), elasticity max(eA, eB).
    static let boundaryFriction = 0.2
    static let boundaryElasticity = 0.0
    /// Approach speed (measured before the step) below which collisions do not bounce, and the rigid passes
    /// that solve a bouncing step's contacts together (Engine/Restitution.swift; Box2D 2.4's 8 iterations).
    static let restitutionThreshold = 100.0
    static let restitutionIterations = 8
    /// A body slower than this (pt/s, including rotation at its bounding radius) counts as resting.
    static let sleepLinearTolerance = 5.0
    static let timeToSleep = 0.5
    /// Contact events: touching starts at or below `touchBegin` separation and ends above `touchEnd`.
    static let touchBegin = 0.5
    static let touchEnd = 1.5
    /// Snap spring frequency (Hz); the damping ratio is `snapMinDampingRatio` + the rest scaled by damping.
    static let snapHertz = 3.0
    static let snapMinDampingRatio = 0.3
    /// Distance below which a distance attachment is solved as a point constraint.
    static let pointJointLength = 0.5
    /// Drag (mouse joint): spring frequency (Hz) and damping ratio, the error its spring sees at most (pt:
    /// at 15 Hz a pull of at most ~90 g), the largest acceleration it may give its item (pt/s², 100 g:
    /// strong enough to lift anything, weak enough that contacts and rods win), and the rate (1/s) at which
    /// it damps the item's spin.
    static let dragHertz = 15.0
    static let dragDampingRatio = 0.7
    static let dragMaxStretch = 10.0
    static let dragMaxAcceleration = 100_000.0
    static let dragAngularDamping = 4.0
}
