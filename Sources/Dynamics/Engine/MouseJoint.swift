/// The solver form of a `DragBehavior` (after Box2D's mouse joint): a soft point constraint between a point
/// of one body and a world target that moves with the pointer, with three bounds that keep it from ever
/// fighting a rigid constraint to the death:
/// - the spring sees at most `Tuning.dragMaxStretch` of error, so its pull never exceeds
///   mass × (2π × `dragHertz`)² × `dragMaxStretch` however far the pointer is;
/// - its damping acts on the grab point's velocity relative to the pointer's (estimated from the target's
///   motion between steps), so it follows a moving pointer closely and damps any swing of a held item;
/// - its accumulated impulse per sub-step is capped at mass × `dragMaxAcceleration` × h.
/// A light angular damper (`dragAngularDamping`) lets the item swing but not spin. It is solved before the
/// other joints and the contacts in every pass, so those (rigid, or much stiffer) have the last word.
struct MouseJoint {
    var behaviorID: BehaviorID
    var body: Int32
    /// The grab point, from the item's center in the item's frame.
    var localAnchor: Vec2
    var target: Vec2
    /// The target at the previous step, for the pointer's velocity.
    var lastTarget: Vec2

    var linearImpulse = Vec2.zero

    // Per-step data.
    var active = false
    /// The body's solver slot.
    var slot: Int32 = 0
    var r = Vec2.zero
    /// Grab point minus target at the start of the step.
    var offset0 = Vec2.zero
    var targetVelocity = Vec2.zero
    var maxImpulse = 0.0
    var spring = Softness()
    var angularMass = 0.0
    var angularDamping = 0.0

    init(behaviorID: BehaviorID, body: Int32, localAnchor: Vec2, target: Vec2) {
        self.behaviorID = behaviorID
        self.body = body
        self.localAnchor = localAnchor
        self.target = target
        self.lastTarget = target
    }
}

func prepareMouseJoints(_ joints: UnsafeMutableBufferPointer<MouseJoint>, _ sb: SolverBodies,
                        _ bodies: UnsafeBufferPointer<Body>, solverSlot: UnsafeBufferPointer<Int32>, h: Double,
                        invDt: Double) {
    for k in 0..<joints.count {
        let i = sb.slot(joints[k].body, solverSlot)
        joints[k].slot = Int32(i)
        // The pointer's velocity over the last step (a pointer that jumped far counts as moving at most as
        // fast as the engine allows).
        joints[k].targetVelocity = clampLength((joints[k].target - joints[k].lastTarget) * invDt,
                                               Tuning.maxLinearSpeed)
        joints[k].lastTarget = joints[k].target
        let m = sb.mass[i].invMass, iI = sb.mass[i].invI
        joints[k].active = m > 0
        guard m > 0 else { continue }
        let b = bodies[Int(joints[k].body)]
        let r = b.lever(joints[k].localAnchor)
        joints[k].r = r
        joints[k].offset0 = b.centerOfMass + r - joints[k].target
        joints[k].spring = Softness(hertz: Tuning.dragHertz, zeta: Tuning.dragDampingRatio, h: h)
        joints[k].maxImpulse = Tuning.dragMaxAcceleration / m * h
        joints[k].angularMass = iI > 0 ? 1 / iI : 0
        joints[k].angularDamping = Tuning.dragAngularDamping * h / (1 + Tuning.dragAngularDamping * h)
    }
}

func warmStartMouseJoints(_ joints: UnsafeMutableBufferPointer<MouseJoint>, _ b: SolverBodies) {
    let s = b.state
    for k in 0..<joints.count where joints[k].active {
        let j = joints[k]
        let i = Int(j.slot)
        let r = s[i].dq.rotate(j.r)
        s[i].v = s[i].v + j.linearImpulse * b.mass[i].invMass
        s[i].w += b.mass[i].invI * r.cross(j.linearImpulse)
    }
}

func solveMouseJoints(_ joints: UnsafeMutableBufferPointer<MouseJoint>, _ b: SolverBodies) {
    let s = b.state
    for k in 0..<joints.count where joints[k].active {
        let i = Int(joints[k].slot)
        let m = b.mass[i].invMass, iI = b.mass[i].invI
        var v = s[i].v, w = s[i].w
        // Angular damper: removes a fixed fraction of the spin per sub-step (no bias, no target angle).
        if iI > 0 { w += iI * (-joints[k].angularDamping * joints[k].angularMass * w) }
        let r = s[i].dq.rotate(joints[k].r)
        let c = clampLength(s[i].dp + r - joints[k].r + joints[k].offset0, Tuning.dragMaxStretch)
        let soft = joints[k].spring
        let cdot = v + crossSV(w, r) - joints[k].targetVelocity
        let k11 = m + iI * r.y * r.y, k12 = -iI * r.x * r.y, k22 = m + iI * r.x * r.x
        var det = k11 * k22 - k12 * k12
        if det != 0 { det = 1 / det }
        let rhs = cdot + c * soft.biasRate
        let solved = Vec2(det * (k22 * rhs.x - k12 * rhs.y), det * (k11 * rhs.y - k12 * rhs.x))
        let old = joints[k].linearImpulse
        var total = old + solved * -soft.massScale - old * soft.impulseScale
        let maxImpulse = joints[k].maxImpulse
        if total.lengthSquared > maxImpulse * maxImpulse { total = total.normalized * maxImpulse }
        joints[k].linearImpulse = total
        let impulse = total - old
        v = v + impulse * m
        w += iI * r.cross(impulse)
        s[i].v = v
        s[i].w = w
    }
}
