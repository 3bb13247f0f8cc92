/// One point of a scalar contact constraint, in Float: anchors relative to the bodies' centres of mass (world
/// orientation, fixed for the step), the separation minus the anchors' projection (so the current separation is
/// a dot product with the position deltas), effective masses, impulses, and what restitution reads.
struct ConstraintPoint {
    var anchorAX: Float = 0
    var anchorAY: Float = 0
    var anchorBX: Float = 0
    var anchorBY: Float = 0
    var adjustedSeparation: Float = 0
    var normalMass: Float = 0
    var tangentMass: Float = 0
    var normalImpulse: Float = 0
    var tangentImpulse: Float = 0
    /// The largest normal impulse applied in one iteration this step (restitution bounces only pushed points).
    var maxNormalImpulse: Float = 0
    /// Normal approach speed before the step (restitution's measure of an impact).
    var relativeVelocity: Float = 0
    /// The manifold's separation at the start of the step.
    var startSeparation: Float = 0
}

/// The per-step constraint of one active contact in scalar form (Box2D v3's `b2ContactConstraint`): what the
/// overflow colour is solved from, and the reference the lanes follow operation for operation. Written by
/// `makeConstraint` once per step; body indices are solver slots (a boundary, a static or a sleeping body is
/// already the dummy), masses are copied in so that the solve reads only the constraint and the body states.
/// A one-point constraint's second point has zero masses and impulses, so solving it changes nothing.
struct ContactConstraint {
    var slotA: Int32 = 0
    var slotB: Int32 = 0
    /// Id of the persistent contact the impulses are stored back to.
    var contact: Int32 = -1
    var pointCount: Int32 = 0
    var invMassA: Float = 0
    var invIA: Float = 0
    var invMassB: Float = 0
    var invIB: Float = 0
    var normalX: Float = 0
    var normalY: Float = 0
    var friction: Float = 0
    /// The contact softness (stiffer against a body that does not move, Box2D's static softness).
    var biasRate: Float = 0
    var massScale: Float = 1
    var impulseScale: Float = 0
    var restitution: Float = 0
    /// Two-point effective-mass matrix [k11 k12; k12 k22] for the restitution passes' block solve; `block` when
    /// both points exist and it is well conditioned.
    var k11: Float = 0
    var k12: Float = 0
    var k22: Float = 0
    var block = false
    var p1 = ConstraintPoint()
    var p2 = ConstraintPoint()
}

@inline(__always) private func crossD(_ a: Vec2, _ b: Vec2) -> Double { a.x * b.y - a.y * b.x }

/// The constraint of contact `id` between slots `ia` and `ib` (Double arithmetic from the persistent
/// contact, rounded to Float once).
@inline(__always)
func makeConstraint(_ c: Contact, id: Int, _ ia: Int, _ ib: Int, _ b: SolverBodies,
                    soft: Softness, staticSoft: Softness) -> ContactConstraint {
    let mA = b.mass[ia].invMass, iA = b.mass[ia].invI, mB = b.mass[ib].invMass, iB = b.mass[ib].invI
    var cc = ContactConstraint()
    cc.slotA = Int32(ia)
    cc.slotB = Int32(ib)
    cc.contact = Int32(id)
    cc.pointCount = c.pointCount
    cc.invMassA = Float(mA)
    cc.invIA = Float(iA)
    cc.invMassB = Float(mB)
    cc.invIB = Float(iB)
    let n = c.normal, t = Vec2(n.y, -n.x)
    cc.normalX = Float(n.x)
    cc.normalY = Float(n.y)
    cc.friction = Float(c.friction)
    cc.restitution = Float(c.restitution)
    let sf = mA == 0 || mB == 0 ? staticSoft : soft
    cc.biasRate = Float(sf.biasRate)
    cc.massScale = Float(sf.massScale)
    cc.impulseScale = Float(sf.impulseScale)
    let vA = b.state[ia].v, wA = b.state[ia].w, vB = b.state[ib].v, wB = b.state[ib].w
    @inline(__always) func prep(_ src: ContactPoint) -> ConstraintPoint {
        var p = ConstraintPoint()
        let rA = src.anchorA, rB = src.anchorB
        p.anchorAX = Float(rA.x)
        p.anchorAY = Float(rA.y)
        p.anchorBX = Float(rB.x)
        p.anchorBY = Float(rB.y)
        p.normalImpulse = Float(src.normalImpulse)
        p.tangentImpulse = Float(src.tangentImpulse)
        let rnA = crossD(rA, n), rnB = crossD(rB, n)
        let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB
        p.normalMass = kN > 0 ? Float(1 / kN) : 0
        let rtA = crossD(rA, t), rtB = crossD(rB, t)
        let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB
        p.tangentMass = kT > 0 ? Float(1 / kT) : 0
        p.adjustedSeparation = Float(src.separation - (rB - rA).dot(n))
        p.startSeparation = Float(src.separation)
        let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
        p.relativeVelocity = Float(n.dot(dv))
        return p
    }
    cc.p1 = prep(c.p0)
    if c.pointCount > 1 {
        cc.p2 = prep(c.p1)
        let r1A = crossD(c.p0.anchorA, n), r1B = crossD(c.p0.anchorB, n)
        let r2A = crossD(c.p1.anchorA, n), r2B = crossD(c.p1.anchorB, n)
        let k11 = mA + mB + iA * r1A * r1A + iB * r1B * r1B
        let k22 = mA + mB + iA * r2A * r2A + iB * r2B * r2B
        let k12 = mA + mB + iA * r1A * r2A + iB * r1B * r2B
        cc.k11 = Float(k11)
        cc.k12 = Float(k12)
        cc.k22 = Float(k22)
        // Box2D 2.4's condition-number guard: fall back to sequential points when nearly singular.
        cc.block = k11 * k11 < 1000 * (k11 * k22 - k12 * k12)
    }
    return cc
}

/// Writes a constraint's accumulated impulses back into its persistent contact, where the next step's
/// manifold update finds them for warm starting.
@inline(__always)
func storeImpulses(_ c: ContactConstraint, _ contacts: UnsafeMutableBufferPointer<Contact>) {
    let i = Int(c.contact)
    contacts[i].p0.normalImpulse = Double(c.p1.normalImpulse)
    contacts[i].p0.tangentImpulse = Double(c.p1.tangentImpulse)
    if contacts[i].pointCount > 1 {
        contacts[i].p1.normalImpulse = Double(c.p2.normalImpulse)
        contacts[i].p1.tangentImpulse = Double(c.p2.tangentImpulse)
    }
}
