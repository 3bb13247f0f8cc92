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

@inline(__always) private func index(_ b: Int32, _ dummy: Int) -> Int { b < 0 ? dummy : Int(b) }

func prepareContacts(_ contacts: UnsafeMutableBufferPointer<Contact>, _ s: UnsafeMutablePointer<SolverBody>,
                     dummy: Int) {
    for k in 0..<contacts.count {
        let ia = Int(contacts[k].bodyA), ib = index(contacts[k].bodyB, dummy)
        let mA = s[ia].invMass, iA = s[ia].invI, mB = s[ib].invMass, iB = s[ib].invI
        let isActive = (mA > 0 || iA > 0 || mB > 0 || iB > 0) && contacts[k].pointCount > 0
        contacts[k].active = isActive
        guard isActive else { continue }
        contacts[k].againstStatic = mA == 0 || mB == 0
        let n = contacts[k].normal, t = tangentOf(n)
        let vA = s[ia].v, wA = s[ia].w, vB = s[ib].v, wB = s[ib].w
        @inline(__always) func prep(_ p: inout ContactPoint) {
            let rA = p.anchorA, rB = p.anchorB
            let rnA = rA.cross(n), rnB = rB.cross(n)
            let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB
            p.normalMass = kN > 0 ? 1 / kN : 0
            let rtA = rA.cross(t), rtB = rB.cross(t)
            let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB
            p.tangentMass = kT > 0 ? 1 / kT : 0
            p.adjustedSeparation = p.baseSeparation - (rB - rA).dot(n)
            let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
            p.relativeVelocity = n.dot(dv)
            p.maxNormalImpulse = 0
        }
        prep(&contacts[k].p0)
        if contacts[k].pointCount > 1 { prep(&contacts[k].p1) }
    }
}

func warmStartContacts(_ contacts: UnsafeMutableBufferPointer<Contact>, _ s: UnsafeMutablePointer<SolverBody>,
                       dummy: Int) {
    for k in 0..<contacts.count where contacts[k].active {
        let c = contacts[k]
        let ia = Int(c.bodyA), ib = index(c.bodyB, dummy)
        let mA = s[ia].invMass, iA = s[ia].invI, mB = s[ib].invMass, iB = s[ib].invI
        var vA = s[ia].v, wA = s[ia].w, vB = s[ib].v, wB = s[ib].w
        let n = c.normal, t = tangentOf(n)
        @inline(__always) func apply(_ p: ContactPoint) {
            let P = n * p.normalImpulse + t * p.tangentImpulse
            wA -= iA * p.anchorA.cross(P)
            vA = vA - P * mA
            wB += iB * p.anchorB.cross(P)
            vB = vB + P * mB
        }
        apply(c.p0)
        if c.pointCount > 1 { apply(c.p1) }
        s[ia].v = vA; s[ia].w = wA
        s[ib].v = vB; s[ib].w = wB
    }
    s[dummy] = SolverBody()
}

func solveContacts(_ contacts: UnsafeMutableBufferPointer<Contact>, _ s: UnsafeMutablePointer<SolverBody>,
                   dummy: Int, _ ctx: ContactSolverContext, useBias: Bool) {
    let invH = ctx.invH
    for k in 0..<contacts.count where contacts[k].active {
        let ia = Int(contacts[k].bodyA), ib = index(contacts[k].bodyB, dummy)
        let sa = s[ia], sb = s[ib]
        let mA = sa.invMass, iA = sa.invI, mB = sb.invMass, iB = sb.invI
        var vA = sa.v, wA = sa.w, vB = sb.v, wB = sb.w
        let dp = sb.dp - sa.dp
        let qA = sa.dq, qB = sb.dq
        let n = contacts[k].normal, t = tangentOf(n)
        let soft = contacts[k].againstStatic ? ctx.staticSoft : ctx.soft
        let pointCount = contacts[k].pointCount
        @inline(__always) func normalPart(_ p: inout ContactPoint) {
            let prA = qA.rotate(p.anchorA), prB = qB.rotate(p.anchorB)
            let sep = (dp + prB - prA).dot(n) + p.adjustedSeparation
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
        normalPart(&contacts[k].p0)
        if pointCount > 1 { normalPart(&contacts[k].p1) }
        let friction = contacts[k].friction
        @inline(__always) func frictionPart(_ p: inout ContactPoint) {
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
            frictionPart(&contacts[k].p0)
            if pointCount > 1 { frictionPart(&contacts[k].p1) }
        }
        s[ia].v = vA; s[ia].w = wA
        s[ib].v = vB; s[ib].w = wB
    }
    s[dummy].v = .zero
    s[dummy].w = 0
}

/// Box2D v3's restitution pass: after the sub-steps, make fast-approaching points bounce back.
func applyRestitution(_ contacts: UnsafeMutableBufferPointer<Contact>, _ s: UnsafeMutablePointer<SolverBody>,
                      dummy: Int) {
    for k in 0..<contacts.count where contacts[k].active && contacts[k].restitution > 0 {
        let ia = Int(contacts[k].bodyA), ib = index(contacts[k].bodyB, dummy)
        let mA = s[ia].invMass, iA = s[ia].invI, mB = s[ib].invMass, iB = s[ib].invI
        var vA = s[ia].v, wA = s[ia].w, vB = s[ib].v, wB = s[ib].w
        let n = contacts[k].normal, e = contacts[k].restitution
        @inline(__always) func bounce(_ p: inout ContactPoint) {
            guard p.relativeVelocity < -Tuning.restitutionThreshold, p.maxNormalImpulse > 0 else { return }
            let rA = p.anchorA, rB = p.anchorB
            let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
            let vn = dv.dot(n)
            var impulse = -p.normalMass * (vn + e * p.relativeVelocity)
            let newImpulse = max(p.normalImpulse + impulse, 0)
            impulse = newImpulse - p.normalImpulse
            p.normalImpulse = newImpulse
            let P = n * impulse
            vA = vA - P * mA
            wA -= iA * rA.cross(P)
            vB = vB + P * mB
            wB += iB * rB.cross(P)
        }
        bounce(&contacts[k].p0)
        if contacts[k].pointCount > 1 { bounce(&contacts[k].p1) }
        s[ia].v = vA; s[ia].w = wA
        s[ib].v = vB; s[ib].w = wB
    }
    s[dummy].v = .zero
    s[dummy].w = 0
}
