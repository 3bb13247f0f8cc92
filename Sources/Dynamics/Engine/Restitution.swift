/// Restitution as UIKit's engine (Box2D 2.x) applies it, on top of Box2D v3's soft step: after the
/// sub-steps, when some contact point approached faster than `Tuning.restitutionThreshold` before the step
/// (`RestitutionInput`, stored before the solve) and was pushed during it, every active contact
/// of the step is solved together for `Tuning.restitutionIterations` rigid passes: bouncing points toward
/// a normal velocity of e × their approach speed, all others toward not approaching (points that were apart
/// at the start of the step may still close their current gap). The
/// two points of a face are solved as one 2×2 problem, so a flat face bounces flat, and a stack that falls
/// together leaves the floor together instead of launching its top item.

/// Whether a contact point bounces this step.
@inline(__always)
private func bounces(_ p: ConstraintPoint, _ relativeVelocity: Double, _ restitution: Double) -> Bool {
    restitution > 0 && relativeVelocity < -Tuning.restitutionThreshold && p.maxNormalImpulse > 0
}

/// True when some contact point bounces this step (the restitution passes are skipped otherwise).
func needsRestitution(_ contacts: UnsafeMutableBufferPointer<ContactConstraint>,
                      _ extra: UnsafeBufferPointer<RestitutionInput>) -> Bool {
    for k in 0..<contacts.count where extra[k].restitution > 0 {
        let c = contacts[k], x = extra[k]
        if bounces(c.p0, x.relativeVelocity0, x.restitution)
            || (c.pointCount > 1 && bounces(c.p1, x.relativeVelocity1, x.restitution)) { return true }
    }
    return false
}

/// One rigid pass over every active contact with restitution targets (no friction, no soft bias).
func solveRestitution(_ contacts: UnsafeMutableBufferPointer<ContactConstraint>,
                      _ extra: UnsafeBufferPointer<RestitutionInput>, _ s: UnsafeMutablePointer<SolverBody>,
                      dummy: Int, invH: Double) {
    for k in 0..<contacts.count {
        let ia = Int(contacts[k].bodyA), ib = Int(contacts[k].bodyB)
        let x = extra[k]
        let sa = s[ia], sb = s[ib]
        let mA = sa.invMass, iA = sa.invI, mB = sb.invMass, iB = sb.invI
        var vA = sa.v, wA = sa.w, vB = sb.v, wB = sb.w
        let n = contacts[k].normal, e = x.restitution
        let dp = sb.dp - sa.dp
        // Points that touched at the start of the step must not approach; others may close their gap.
        @inline(__always) func target(_ p: ConstraintPoint, _ relativeVelocity: Double, _ baseSeparation: Double)
            -> Double {
            if bounces(p, relativeVelocity, e) { return -e * relativeVelocity }
            if baseSeparation <= Tuning.linearSlop { return 0 }
            let sep = (dp + sb.dq.rotate(p.anchorB) - sa.dq.rotate(p.anchorA)).dot(n) + p.adjustedSeparation
            return -max(sep, 0) * invH
        }
        @inline(__always) func single(_ p: inout ConstraintPoint, _ t: Double) {
            let dv = vB + crossSV(wB, p.anchorB) - vA - crossSV(wA, p.anchorA)
            var impulse = -p.normalMass * (dv.dot(n) - t)
            let newImpulse = max(p.normalImpulse + impulse, 0)
            impulse = newImpulse - p.normalImpulse
            p.normalImpulse = newImpulse
            let P = n * impulse
            vA = vA - P * mA
            wA -= iA * p.anchorA.cross(P)
            vB = vB + P * mB
            wB += iB * p.anchorB.cross(P)
        }
        let t0 = target(contacts[k].p0, x.relativeVelocity0, x.baseSeparation0)
        if contacts[k].pointCount > 1 {
            let t1 = target(contacts[k].p1, x.relativeVelocity1, x.baseSeparation1)
            if contacts[k].block {
                blockSolve(&contacts[k], t0, t1, &vA, &wA, &vB, &wB, mA, iA, mB, iB)
            } else {
                single(&contacts[k].p0, t0)
                single(&contacts[k].p1, t1)
            }
        } else {
            single(&contacts[k].p0, t0)
        }
        s[ia].v = vA; s[ia].w = wA
        s[ib].v = vB; s[ib].w = wB
    }
    s[dummy].v = .zero
    s[dummy].w = 0
}

/// Both normal points at once with target normal velocities t1, t2: the 2×2 LCP of Box2D 2.4's block
/// solver (relative normal velocity ≥ target, impulse ≥ 0, complementary).
@inline(__always)
private func blockSolve(_ c: inout ContactConstraint, _ t1: Double, _ t2: Double,
                        _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double,
                        _ mA: Double, _ iA: Double, _ mB: Double, _ iB: Double) {
    let n = c.normal
    let r1A = c.p0.anchorA, r1B = c.p0.anchorB, r2A = c.p1.anchorA, r2B = c.p1.anchorB
    let vn1 = (vB + crossSV(wB, r1B) - vA - crossSV(wA, r1A)).dot(n)
    let vn2 = (vB + crossSV(wB, r2B) - vA - crossSV(wA, r2A)).dot(n)
    let a1 = c.p0.normalImpulse, a2 = c.p1.normalImpulse
    let k11 = c.k11, k12 = c.k12, k22 = c.k22
    let b1 = vn1 - t1 - (k11 * a1 + k12 * a2)
    let b2 = vn2 - t2 - (k12 * a1 + k22 * a2)
    let (x1, x2) = blockSolve(k11: k11, k12: k12, k22: k22, b1: b1, b2: b2)
    let d1 = x1 - a1, d2 = x2 - a2
    c.p0.normalImpulse = x1
    c.p1.normalImpulse = x2
    let P1 = n * d1, P2 = n * d2
    vA = vA - (P1 + P2) * mA
    wA -= iA * (r1A.cross(P1) + r2A.cross(P2))
    vB = vB + (P1 + P2) * mB
    wB += iB * (r1B.cross(P1) + r2B.cross(P2))
}

/// The normal impulses before the restitution passes: restored after them, so the next step warm-starts
/// from the resting load and not from the one-off bounce (which would push a stack apart).
func saveNormalImpulses(_ contacts: UnsafeMutableBufferPointer<ContactConstraint>, into saved: inout [Double]) {
    saved.removeAll(keepingCapacity: true)
    for k in 0..<contacts.count {
        saved.append(contacts[k].p0.normalImpulse)
        saved.append(contacts[k].p1.normalImpulse)
    }
}

func restoreNormalImpulses(_ contacts: UnsafeMutableBufferPointer<ContactConstraint>, from saved: [Double]) {
    for k in 0..<contacts.count {
        contacts[k].p0.normalImpulse = saved[2 * k]
        contacts[k].p1.normalImpulse = saved[2 * k + 1]
    }
}
