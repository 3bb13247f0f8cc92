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


func prepareJoints(_ joints: UnsafeMutableBufferPointer<Joint>, _ s: UnsafeMutablePointer<SolverBody>,
                   _ bodies: UnsafeBufferPointer<Body>, dummy: Int, h: Double) {
    for k in 0..<joints.count {
        let ia = Int(joints[k].bodyA), ib = solverIndex(joints[k].bodyB, dummy)
        let mA = s[ia].invMass, iA = s[ia].invI, mB = s[ib].invMass, iB = s[ib].invI
        joints[k].active = mA > 0 || iA > 0 || mB > 0 || iB > 0
        guard joints[k].active else { continue }
        let bA = bodies[ia]
        // Lever arms from the centers of mass (the points are given relative to the items' centers).
        let rA = bA.lever(joints[k].localA)
        var rB = Vec2.zero, cB = joints[k].localB
        if ib != dummy {
            rB = bodies[ib].lever(joints[k].localB)
            cB = bodies[ib].centerOfMass
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

func warmStartJoints(_ joints: UnsafeMutableBufferPointer<Joint>, _ s: UnsafeMutablePointer<SolverBody>,
                     dummy: Int) {
    for k in 0..<joints.count where joints[k].active {
        let j = joints[k]
        let ia = Int(j.bodyA), ib = solverIndex(j.bodyB, dummy)
        let (rA, rB, d) = geometry(j, s[ia], s[ib])
        let P: Vec2
        switch j.solvedKind {
        case .distance, .rope: P = d.normalized * j.axialImpulse
        case .point, .snap: P = j.linearImpulse
        }
        s[ia].v = s[ia].v - P * s[ia].invMass
        s[ia].w -= s[ia].invI * (rA.cross(P) - j.angularImpulse)
        s[ib].v = s[ib].v + P * s[ib].invMass
        s[ib].w += s[ib].invI * rB.cross(P)
    }
    s[dummy] = SolverBody()
}

func solveJoints(_ joints: UnsafeMutableBufferPointer<Joint>, _ s: UnsafeMutablePointer<SolverBody>,
                 dummy: Int, _ ctx: JointSolverContext, useBias: Bool) {
    let maxBias = Tuning.maxLinearSpeed
    for k in 0..<joints.count where joints[k].active {
        let ia = Int(joints[k].bodyA), ib = solverIndex(joints[k].bodyB, dummy)
        let a = s[ia], b = s[ib]
        let mA = a.invMass, iA = a.invI, mB = b.invMass, iB = b.invI
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
            let angle = joints[k].baseAngle + a.da
            let impulse = -soft.massScale * joints[k].angularMass * (wA + soft.biasRate * angle)
                - soft.impulseScale * joints[k].angularImpulse
            joints[k].angularImpulse += impulse
            wA += iA * impulse
        }
        s[ia].v = vA; s[ia].w = wA
        s[ib].v = vB; s[ib].w = wB
    }
    s[dummy].v = .zero
    s[dummy].w = 0
}
