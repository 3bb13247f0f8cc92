/// How an attachment or snap is solved.
enum JointKind: Sendable {
    /// Keeps the anchor distance at `length` (rigid, or a spring when `hertz` > 0).
    case distance
    /// Rope: the distance may shrink but never exceed `length`.
    case rope
    /// The two anchor points coincide (rigid, or soft when `hertz` > 0).
    case point
    /// Soft point constraint to a world point plus an angular spring to angle 0.
    case snap
}

/// A solver joint built from an attachment or snap behavior. Body B index -1 means the world: `localB` is then
/// a world point. Accumulated impulses persist across steps for warm starting.
struct Joint {
    var behaviorID: BehaviorID
    var kind: JointKind
    var bodyA: Int32
    var bodyB: Int32
    var localA: Vec2
    var localB: Vec2
    var length: Double
    var hertz: Double
    var zeta: Double

    var linearImpulse = Vec2.zero
    /// Impulse along the axis applied to B (negative for a rope pulling B toward A).
    var axialImpulse = 0.0
    var angularImpulse = 0.0

    // Per-step data.
    var active = false
    /// Solver slots of A and B (the dummy for the world, a static or a sleeping body).
    var slotA: Int32 = 0
    var slotB: Int32 = 0
    var rA = Vec2.zero
    var rB = Vec2.zero
    var deltaCenter = Vec2.zero
    var axialMass = 0.0
    var angularMass = 0.0
    var baseAngle = 0.0
    var spring = Softness()

    /// The kind actually solved: a rigid distance of (almost) zero length has no axis, so it is a point joint.
    var solvedKind: JointKind { kind == .distance && length < Tuning.pointJointLength ? .point : kind }
}

/// Per-step parameters of the joint solver.
struct JointSolverContext {
    var jointSoft: Softness
    var invH: Double
}


/// Prepares the joints listed in `ids` (the awake ones, Engine/AwakeJoints.swift); the others are not solved.
func prepareJoints(_ joints: UnsafeMutableBufferPointer<Joint>, ids: UnsafeBufferPointer<Int32>, _ b: SolverBodies,
                   _ bodies: UnsafeBufferPointer<Body>, solverSlot: UnsafeBufferPointer<Int32>, h: Double) {
    for id in ids {
        let k = Int(id)
        let ia = b.slot(joints[k].bodyA, solverSlot), ib = b.slot(joints[k].bodyB, solverSlot)
        joints[k].slotA = Int32(ia)
        joints[k].slotB = Int32(ib)
        let mA = b.mass[ia].invMass, iA = b.mass[ia].invI, mB = b.mass[ib].invMass, iB = b.mass[ib].invI
        joints[k].active = mA > 0 || iA > 0 || mB > 0 || iB > 0
        guard joints[k].active else { continue }
        let bA = bodies[Int(joints[k].bodyA)]
        // Lever arms from the centers of mass (the points are given relative to the items' centers).
        let rA = bA.lever(joints[k].localA)
        var rB = Vec2.zero, cB = joints[k].localB
        if joints[k].bodyB >= 0 {
            rB = bodies[Int(joints[k].bodyB)].lever(joints[k].localB)
            cB = bodies[Int(joints[k].bodyB)].centerOfMass
        }
        joints[k].rA = rA
        joints[k].rB = rB
        joints[k].deltaCenter = cB - bA.centerOfMass
        let axis = (joints[k].deltaCenter + rB - rA).normalized
        let crA = rA.cross(axis), crB = rB.cross(axis)
        let kAxial = mA + mB + iA * crA * crA + iB * crB * crB
        joints[k].axialMass = kAxial > 0 ? 1 / kAxial : 0
        joints[k].angularMass = iA > 0 ? 1 / iA : 0
        joints[k].baseAngle = wrapAngle(bA.angle)
        joints[k].spring = Softness(hertz: joints[k].hertz, zeta: joints[k].zeta, h: h)
    }
}

/// Current lever arms and the vector from A's anchor to B's anchor, from the bodies' deltas.
@inline(__always)
private func geometry(_ j: Joint, _ a: SolverBody, _ b: SolverBody) -> (rA: Vec2, rB: Vec2, d: Vec2) {
    let rA = a.dq.rotate(j.rA), rB = b.dq.rotate(j.rB)
    return (rA, rB, (b.dp - a.dp) + j.deltaCenter + rB - rA)
}

/// Joint `k`'s warm start (when active).
@inline(__always)
func warmStartJoint(_ joints: UnsafeMutableBufferPointer<Joint>, _ k: Int, _ b: SolverBodies) {
    let s = b.state, m = b.mass
    guard joints[k].active else { return }
    let j = joints[k]
    let ia = Int(j.slotA), ib = Int(j.slotB)
    let (rA, rB, d) = geometry(j, s[ia], s[ib])
    let P: Vec2
    switch j.solvedKind {
    case .distance, .rope: P = d.normalized * j.axialImpulse
    case .point, .snap: P = j.linearImpulse
    }
    s[ia].v = s[ia].v - P * m[ia].invMass
    s[ia].w -= m[ia].invI * (rA.cross(P) - j.angularImpulse)
    s[ib].v = s[ib].v + P * m[ib].invMass
    s[ib].w += m[ib].invI * rB.cross(P)
}

func warmStartJoints(_ joints: UnsafeMutableBufferPointer<Joint>, _ b: SolverBodies) {
    for k in 0..<joints.count { warmStartJoint(joints, k, b) }
    b.resetDummy()
}

/// Joint `k`'s solve or relax pass (when active).
@inline(__always)
func solveJoint(_ joints: UnsafeMutableBufferPointer<Joint>, _ k: Int, _ bodies: SolverBodies,
                _ ctx: JointSolverContext, useBias: Bool) {
    let maxBias = Tuning.maxLinearSpeed
    let s = bodies.state
    guard joints[k].active else { return }
    let ia = Int(joints[k].slotA), ib = Int(joints[k].slotB)
    let a = s[ia], b = s[ib]
    let mA = bodies.mass[ia].invMass, iA = bodies.mass[ia].invI
    let mB = bodies.mass[ib].invMass, iB = bodies.mass[ib].invI
    var vA = a.v, wA = a.w, vB = b.v, wB = b.w
    let (rA, rB, d) = geometry(joints[k], a, b)
    let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
    let kind = joints[k].solvedKind
    var P = Vec2.zero
    switch kind {
    case .distance, .rope:
        let length = d.length
        let axis = d.normalized
        let cdot = axis.dot(dv)
        let mass = joints[k].axialMass
        if kind == .distance {
            let soft = joints[k].hertz > 0 ? joints[k].spring : (useBias ? ctx.jointSoft : .rigid)
            let bias = clampMagnitude(soft.biasRate * (length - joints[k].length), maxBias)
            let impulse = -soft.massScale * mass * (cdot + bias) - soft.impulseScale * joints[k].axialImpulse
            joints[k].axialImpulse += impulse
            P = axis * impulse
        } else {
            let c = joints[k].length - length
            var bias = 0.0, massScale = 1.0, impulseScale = 0.0
            if c > 0 {
                bias = c * ctx.invH
            } else if useBias {
                bias = clampMagnitude(ctx.jointSoft.biasRate * c, maxBias)
                massScale = ctx.jointSoft.massScale
                impulseScale = ctx.jointSoft.impulseScale
            }
            let lambda = -joints[k].axialImpulse
            let impulse = -massScale * mass * (-cdot + bias) - impulseScale * lambda
            let newLambda = max(0, lambda + impulse)
            joints[k].axialImpulse = -newLambda
            P = axis * -(newLambda - lambda)
        }
    case .point, .snap:
        let soft = joints[k].hertz > 0 || kind == .snap ? joints[k].spring : (useBias ? ctx.jointSoft : .rigid)
        let bias = clampLength(d * soft.biasRate, maxBias)
        let k11 = mA + mB + iA * rA.y * rA.y + iB * rB.y * rB.y
        let k12 = -iA * rA.x * rA.y - iB * rB.x * rB.y
        let k22 = mA + mB + iA * rA.x * rA.x + iB * rB.x * rB.x
        var det = k11 * k22 - k12 * k12
        if det != 0 { det = 1 / det }
        let rhs = dv + bias
        let solved = Vec2(det * (k22 * rhs.x - k12 * rhs.y), det * (k11 * rhs.y - k12 * rhs.x))
        let impulse = solved * -soft.massScale - joints[k].linearImpulse * soft.impulseScale
        joints[k].linearImpulse += impulse
        P = impulse
    }
    vA = vA - P * mA
    wA -= iA * rA.cross(P)
    vB = vB + P * mB
    wB += iB * rB.cross(P)
    if kind == .snap && iA > 0 {
        // Angular spring toward angle 0, the way UIKit's snap straightens the item.
        let soft = joints[k].spring
        let angle = joints[k].baseAngle + bodies.turned[ia]
        let impulse = -soft.massScale * joints[k].angularMass * (wA + soft.biasRate * angle)
            - soft.impulseScale * joints[k].angularImpulse
        joints[k].angularImpulse += impulse
        wA += iA * impulse
    }
    s[ia].v = vA; s[ia].w = wA
    s[ib].v = vB; s[ib].w = wB
}

func solveJoints(_ joints: UnsafeMutableBufferPointer<Joint>, ids: UnsafeBufferPointer<Int32>, _ bodies: SolverBodies,
                 _ ctx: JointSolverContext, useBias: Bool) {
    for k in ids { solveJoint(joints, Int(k), bodies, ctx, useBias: useBias) }
    bodies.resetDummy()
}

/// The joints of one colour (or of the overflow), Box2D's joint stage before the colour's contacts: `order`
/// entries >= 0 are attachment joints, negative ones constraint joints (-1 - index).
@inline(never)
func warmStartColouredJoints(_ order: UnsafeBufferPointer<Int32>, _ range: Range<Int>,
                             _ joints: UnsafeMutableBufferPointer<Joint>,
                             _ constraintJoints: UnsafeMutableBufferPointer<ConstraintJoint>, _ b: SolverBodies) {
    for i in range {
        let e = Int(order[i])
        if e >= 0 { warmStartJoint(joints, e, b) } else { warmStartConstraintJoint(constraintJoints, -1 - e, b) }
    }
}

@inline(never)
func solveColouredJoints(_ order: UnsafeBufferPointer<Int32>, _ range: Range<Int>,
                         _ joints: UnsafeMutableBufferPointer<Joint>,
                         _ constraintJoints: UnsafeMutableBufferPointer<ConstraintJoint>, _ b: SolverBodies,
                         _ ctx: JointSolverContext, h: Double, useBias: Bool) {
    for i in range {
        let e = Int(order[i])
        if e >= 0 {
            solveJoint(joints, e, b, ctx, useBias: useBias)
        } else {
            solveConstraintJoint(constraintJoints, -1 - e, b, ctx, h: h, useBias: useBias)
        }
    }
}
