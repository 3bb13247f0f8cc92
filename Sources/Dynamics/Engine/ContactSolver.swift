/// Soft-constraint coefficients (Box2D v3's `b2Softness`): an implicit spring of `hertz` with damping ratio
/// `zeta`, expressed as a velocity bias rate and scales for the effective mass and the accumulated impulse.
struct Softness {
    var biasRate = 0.0
    var massScale = 1.0
    var impulseScale = 0.0

    static let rigid = Softness()

    init() {}

    init(hertz: Double, zeta: Double, h: Double) {
        if hertz == 0 { return }
        let omega = 2 * Double.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }
}

/// Velocity and position deltas of one body during a step; index `count` of the array is a static dummy
/// that stands for boundary segments. Sleeping and static bodies have zero inverse mass here.
struct SolverBody {
    var v = Vec2.zero
    var w = 0.0
    var dp = Vec2.zero
    var dq = Rot.identity
    /// Angle turned so far this step (kept separately so that a body that never turns keeps its exact angle).
    var da = 0.0
    var invMass = 0.0
    var invI = 0.0
}

/// Shared per-step parameters of the contact solver.
struct ContactSolverContext {
    var soft: Softness
    var staticSoft: Softness
    var invH: Double
}

@inline(__always) private func tangentOf(_ n: Vec2) -> Vec2 { Vec2(n.y, -n.x) }

/// A body slot in the solver arrays; a missing body (-1: a boundary) maps to the static `dummy` slot.
@inline(__always) func solverIndex(_ b: Int32, _ dummy: Int) -> Int { b < 0 ? dummy : Int(b) }

/// Builds the step's constraints from the active contacts among `ids` (the world's `awakeContacts`, in that
/// order) and the restitution inputs.
func prepareContacts(_ contacts: UnsafeMutableBufferPointer<Contact>, _ ids: [Int32],
                     _ s: UnsafeMutablePointer<SolverBody>,
                     dummy: Int, into out: inout [ContactConstraint], restitution extra: inout [RestitutionInput]) {
    out.removeAll(keepingCapacity: true)
    extra.removeAll(keepingCapacity: true)
    for id in ids {
        let k = Int(id)
        let ia = Int(contacts[k].bodyA), ib = solverIndex(contacts[k].bodyB, dummy)
        let mA = s[ia].invMass, iA = s[ia].invI, mB = s[ib].invMass, iB = s[ib].invI
        let isActive = (mA > 0 || iA > 0 || mB > 0 || iB > 0) && contacts[k].pointCount > 0
        guard isActive else { continue }
        let c = contacts[k]
        var cc = ContactConstraint()
        cc.bodyA = Int32(ia)
        cc.bodyB = Int32(ib)
        cc.contact = Int32(k)
        cc.pointCount = UInt8(c.pointCount)
        cc.friction = c.friction
        cc.againstStatic = mA == 0 || mB == 0
        var rin = RestitutionInput()
        rin.restitution = c.restitution
        let n = c.normal, t = tangentOf(n)
        cc.normal = n
        let vA = s[ia].v, wA = s[ia].w, vB = s[ib].v, wB = s[ib].w
        @inline(__always) func prep(_ src: ContactPoint, _ p: inout ConstraintPoint, _ relativeVelocity: inout Double) {
            let rA = src.anchorA, rB = src.anchorB
            p.anchorA = rA
            p.anchorB = rB
            p.normalImpulse = src.normalImpulse
            p.tangentImpulse = src.tangentImpulse
            let rnA = rA.cross(n), rnB = rB.cross(n)
            let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            p.normalMass = kN > 0 ? 1 / kN : 0
            let rtA = rA.cross(t), rtB = rB.cross(t)
            let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            p.tangentMass = kT > 0 ? 1 / kT : 0
            p.adjustedSeparation = src.baseSeparation - (rB - rA).dot(n)
            let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
            relativeVelocity = n.dot(dv)
            p.maxNormalImpulse = 0
        }
        prep(c.p0, &cc.p0, &rin.relativeVelocity0)
        rin.baseSeparation0 = c.p0.baseSeparation
        if c.pointCount > 1 {
            prep(c.p1, &cc.p1, &rin.relativeVelocity1)
            rin.baseSeparation1 = c.p1.baseSeparation
            let r1A = c.p0.anchorA.cross(n), r1B = c.p0.anchorB.cross(n)
            let r2A = c.p1.anchorA.cross(n), r2B = c.p1.anchorB.cross(n)
            let k11 = mA + mB + iA * r1A * r1A + iB * r1B * r1B
            let k22 = mA + mB + iA * r2A * r2A + iB * r2B * r2B
            let k12 = mA + mB + iA * r1A * r2A + iB * r1B * r2B
            cc.k11 = k11
            cc.k12 = k12
            cc.k22 = k22
            // Box2D 2.4's condition-number guard: fall back to sequential points when nearly singular.
            cc.block = k11 * k11 < 1000 * (k11 * k22 - k12 * k12)
        }
        out.append(cc)
        extra.append(rin)
    }
}

/// One constraint's normal (or rigid block) and friction impulses, in place; the scalar reference for the
/// wide solve and the solve of what does not fill a group of lanes.
@inline(__always)
func solveContact(_ c: inout ContactConstraint, _ s: UnsafeMutablePointer<SolverBody>,
                  _ ctx: ContactSolverContext, useBias: Bool) {
    let invH = ctx.invH
    let ia = Int(c.bodyA), ib = Int(c.bodyB)
    let sa = s[ia], sb = s[ib]
    let mA = sa.invMass, iA = sa.invI, mB = sb.invMass, iB = sb.invI
    var vA = sa.v, wA = sa.w, vB = sb.v, wB = sb.w
    let dp = sb.dp - sa.dp
    let qA = sa.dq, qB = sb.dq
    let n = c.normal, t = tangentOf(n)
    let soft = c.againstStatic ? ctx.staticSoft : ctx.soft
    let pointCount = c.pointCount
    // Positions do not change during a velocity pass, so each point's separation is computed once.
    let sep0 = currentSeparation(c.p0, n, qA, qB, dp)
    let sep1 = pointCount > 1 ? currentSeparation(c.p1, n, qA, qB, dp) : 0
    @inline(__always) func normalPart(_ p: inout ConstraintPoint, _ sep: Double) {
        var bias = 0.0, massScale = 1.0, impulseScale = 0.0
        if sep > 0 {
            bias = sep * invH
        } else if useBias {
            bias = max(soft.biasRate * sep, -Tuning.contactPushMaxVelocity)
            massScale = soft.massScale
            impulseScale = soft.impulseScale
        }
        let rA = p.anchorA, rB = p.anchorB
        let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
        let vn = dv.dot(n)
        var impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse
        let newImpulse = max(p.normalImpulse + impulse, 0)
        impulse = newImpulse - p.normalImpulse
        p.normalImpulse = newImpulse
        p.maxNormalImpulse = max(p.maxNormalImpulse, impulse)
        let P = n * impulse
        vA = vA - P * mA
        wA -= iA * rA.cross(P)
        vB = vB + P * mB
        wB += iB * rB.cross(P)
    }
    // Relax passes, and speculative contacts whose two points are both still apart, are rigid: solve both
    // points exactly at once so that a fast item arrives flat instead of being spun point by point.
    if c.block && (!useBias || (sep0 > 0 && sep1 > 0)) {
        blockSolveRigid(&c, sep0, sep1, invH, &vA, &wA, &vB, &wB, mA, iA, mB, iB)
    } else {
        normalPart(&c.p0, sep0)
        if pointCount > 1 { normalPart(&c.p1, sep1) }
    }
    let friction = c.friction
    @inline(__always) func frictionPart(_ p: inout ConstraintPoint) {
        let rA = p.anchorA, rB = p.anchorB
        let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
        let vt = dv.dot(t)
        var impulse = -p.tangentMass * vt
        let maxFriction = friction * p.normalImpulse
        let newImpulse = min(max(p.tangentImpulse + impulse, -maxFriction), maxFriction)
        impulse = newImpulse - p.tangentImpulse
        p.tangentImpulse = newImpulse
        let P = t * impulse
        vA = vA - P * mA
        wA -= iA * rA.cross(P)
        vB = vB + P * mB
        wB += iB * rB.cross(P)
    }
    if friction > 0 {
        frictionPart(&c.p0)
        if pointCount > 1 { frictionPart(&c.p1) }
    }
    s[ia].v = vA; s[ia].w = wA
    s[ib].v = vB; s[ib].w = wB
}

@inline(__always)
private func currentSeparation(_ p: ConstraintPoint, _ n: Vec2, _ qA: Rot, _ qB: Rot, _ dp: Vec2) -> Double {
    (dp + qB.rotate(p.anchorB) - qA.rotate(p.anchorA)).dot(n) + p.adjustedSeparation
}

/// Rigid solve of both normal points at once: the 2×2 LCP of Box2D 2.4's block solver (target: relative
/// normal velocity ≥ −separation/h, i.e. ≥ 0 once touching).
@inline(__always)
private func blockSolveRigid(_ c: inout ContactConstraint, _ s1: Double, _ s2: Double, _ invH: Double,
                             _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double,
                             _ mA: Double, _ iA: Double, _ mB: Double, _ iB: Double) {
    let n = c.normal
    let r1A = c.p0.anchorA, r1B = c.p0.anchorB, r2A = c.p1.anchorA, r2B = c.p1.anchorB
    let vn1 = (vB + crossSV(wB, r1B) - vA - crossSV(wA, r1A)).dot(n)
    let vn2 = (vB + crossSV(wB, r2B) - vA - crossSV(wA, r2A)).dot(n)
    let a1 = c.p0.normalImpulse, a2 = c.p1.normalImpulse
    let k11 = c.k11, k12 = c.k12, k22 = c.k22
    // w = K x + b ≥ 0, x ≥ 0, w·x = 0, where b is the velocity error without the accumulated impulse a.
    let b1 = vn1 + max(s1, 0) * invH - (k11 * a1 + k12 * a2)
    let b2 = vn2 + max(s2, 0) * invH - (k12 * a1 + k22 * a2)
    let (x1, x2) = blockSolve(k11: k11, k12: k12, k22: k22, b1: b1, b2: b2)
    let d1 = x1 - a1, d2 = x2 - a2
    c.p0.normalImpulse = x1
    c.p1.normalImpulse = x2
    c.p0.maxNormalImpulse = max(c.p0.maxNormalImpulse, d1)
    c.p1.maxNormalImpulse = max(c.p1.maxNormalImpulse, d2)
    let P1 = n * d1, P2 = n * d2
    vA = vA - (P1 + P2) * mA
    wA -= iA * (r1A.cross(P1) + r2A.cross(P2))
    vB = vB + (P1 + P2) * mB
    wB += iB * (r1B.cross(P1) + r2B.cross(P2))
}
