/// A solver joint built from a fixed, sliding or pin attachment (docs/UIKIT.md, Attachments): rows that are
/// switched on per kind — the two anchor points coincide (`point`: weld, pin), the item stays on a line through
/// A's anchor along `axisA` (`slide`) within `translationLower...translationUpper`, the relative angle is
/// locked (`lockAngle`: weld, slide) or kept within `angleLower...angleUpper`, and a turn is opposed by up to
/// `maxFrictionTorque`. Body A is the reference (an item, or -1 for the world: `localA` and `axisA` are then
/// in world coordinates); body B is the attached item. Accumulated impulses persist for warm starting.
struct ConstraintJoint {
    var behaviorID: BehaviorID
    var bodyA: Int32
    var bodyB: Int32
    var localA: Vec2
    var localB: Vec2
    var axisA = Vec2(1, 0)
    /// angleB - angleA when the joint was made.
    var referenceAngle: Double
    var point = false
    var slide = false
    var lockAngle = false
    var hasAngleLimits = false
    var angleLower = 0.0
    var angleUpper = 0.0
    var hasTranslationLimits = false
    var translationLower = 0.0
    var translationUpper = 0.0
    /// Engine units (mass·pt²/s²).
    var maxFrictionTorque = 0.0

    var linearImpulse = Vec2.zero
    var angleImpulse = 0.0
    var lowerAngleImpulse = 0.0
    var upperAngleImpulse = 0.0
    var frictionImpulse = 0.0
    var perpImpulse = 0.0
    var lowerImpulse = 0.0
    var upperImpulse = 0.0

    // Per-step data.
    var active = false
    /// Solver slots of A and B (the dummy for the world, a static or a sleeping body).
    var slotA: Int32 = 0
    var slotB: Int32 = 0
    var rA = Vec2.zero
    var rB = Vec2.zero
    var axis = Vec2(1, 0)
    var deltaCenter = Vec2.zero
    var deltaAngle = 0.0
    var angularMass = 0.0
}

/// Prepares the joints listed in `ids` (the awake ones, Engine/AwakeJoints.swift); the others are not solved.
func prepareConstraintJoints(_ joints: UnsafeMutableBufferPointer<ConstraintJoint>, ids: UnsafeBufferPointer<Int32>,
                             _ sb: SolverBodies, _ bodies: UnsafeBufferPointer<Body>,
                             solverSlot: UnsafeBufferPointer<Int32>) {
    for id in ids {
        let k = Int(id)
        let ia = sb.slot(joints[k].bodyA, solverSlot), ib = sb.slot(joints[k].bodyB, solverSlot)
        joints[k].slotA = Int32(ia)
        joints[k].slotB = Int32(ib)
        let iA = sb.mass[ia].invI, iB = sb.mass[ib].invI
        joints[k].active = sb.mass[ia].invMass > 0 || iA > 0 || sb.mass[ib].invMass > 0 || iB > 0
        guard joints[k].active else { continue }
        var cA = joints[k].localA, angleA = 0.0, rA = Vec2.zero, axis = joints[k].axisA
        if joints[k].bodyA >= 0 {
            let a = bodies[Int(joints[k].bodyA)]
            cA = a.centerOfMass
            angleA = a.angle
            rA = a.lever(joints[k].localA)
            axis = a.rot.rotate(joints[k].axisA)
        }
        let b = bodies[Int(joints[k].bodyB)]
        joints[k].rA = rA
        joints[k].rB = b.lever(joints[k].localB)
        joints[k].axis = axis
        joints[k].deltaCenter = b.centerOfMass - cA
        joints[k].deltaAngle = b.angle - angleA - joints[k].referenceAngle
        joints[k].angularMass = iA + iB > 0 ? 1 / (iA + iB) : 0
    }
}

/// The current lever arms, axis, anchor separation and relative angle, from the bodies' deltas.
@inline(__always)
private func pose(_ j: ConstraintJoint, _ sb: SolverBodies, _ ia: Int, _ ib: Int)
    -> (rA: Vec2, rB: Vec2, axis: Vec2, d: Vec2, angle: Double) {
    let a = sb.state[ia], b = sb.state[ib]
    let rA = a.dq.rotate(j.rA), rB = b.dq.rotate(j.rB)
    return (rA, rB, a.dq.rotate(j.axis), (b.dp - a.dp) + j.deltaCenter + rB - rA,
            j.deltaAngle + sb.turned[ib] - sb.turned[ia])
}

/// Constraint joint `k`'s warm start (when active).
@inline(__always)
func warmStartConstraintJoint(_ joints: UnsafeMutableBufferPointer<ConstraintJoint>, _ k: Int, _ sb: SolverBodies) {
    let s = sb.state
    guard joints[k].active else { return }
    let j = joints[k]
    let ia = Int(j.slotA), ib = Int(j.slotB)
    let (rA, rB, axis, d, _) = pose(j, sb, ia, ib)
    let perp = Vec2(-axis.y, axis.x)
    let axial = j.lowerImpulse - j.upperImpulse
    let P = j.linearImpulse + perp * j.perpImpulse + axis * axial
    let angular = j.angleImpulse + j.lowerAngleImpulse - j.upperAngleImpulse + j.frictionImpulse
    // Slide rows act at B's anchor against A's line: their lever arm on A is d + rA.
    let leverA = j.slide ? (d + rA).cross(perp) * j.perpImpulse + (d + rA).cross(axis) * axial + rA.cross(j.linearImpulse)
                         : rA.cross(P)
    s[ia].v = s[ia].v - P * sb.mass[ia].invMass
    s[ia].w -= sb.mass[ia].invI * (leverA + angular)
    s[ib].v = s[ib].v + P * sb.mass[ib].invMass
    s[ib].w += sb.mass[ib].invI * (rB.cross(P) + angular)
}

func warmStartConstraintJoints(_ joints: UnsafeMutableBufferPointer<ConstraintJoint>, _ sb: SolverBodies) {
    for k in 0..<joints.count { warmStartConstraintJoint(joints, k, sb) }
    sb.resetDummy()
}

/// Constraint joint `k`'s solve or relax pass (when active).
@inline(__always)
func solveConstraintJoint(_ joints: UnsafeMutableBufferPointer<ConstraintJoint>, _ k: Int, _ sb: SolverBodies,
                           _ ctx: JointSolverContext, h: Double, useBias: Bool) {
    let maxBias = Tuning.maxLinearSpeed
    let s = sb.state
    guard joints[k].active else { return }
    var j = joints[k]
    let ia = Int(j.slotA), ib = Int(j.slotB)
    let mA = sb.mass[ia].invMass, iA = sb.mass[ia].invI, mB = sb.mass[ib].invMass, iB = sb.mass[ib].invI
    var vA = s[ia].v, wA = s[ia].w, vB = s[ib].v, wB = s[ib].w
    let (rA, rB, axis, d, angle) = pose(j, sb, ia, ib)
    let soft = useBias ? ctx.jointSoft : .rigid

    // Friction torque: a motor of speed 0 whose impulse is bounded by torque × h.
    if j.maxFrictionTorque > 0 && j.angularMass > 0 {
        let maxImpulse = j.maxFrictionTorque * h
        let old = j.frictionImpulse
        j.frictionImpulse = clampMagnitude(old - j.angularMass * (wB - wA), maxImpulse)
        let impulse = j.frictionImpulse - old
        wA -= iA * impulse
        wB += iB * impulse
    }
    // Angle: locked, or within limits (speculative when apart, soft when violated).
    if j.angularMass > 0 {
        if j.lockAngle {
            let bias = clampMagnitude(soft.biasRate * angle, maxBias)
            let impulse = -soft.massScale * j.angularMass * (wB - wA + bias) - soft.impulseScale * j.angleImpulse
            j.angleImpulse += impulse
            wA -= iA * impulse
            wB += iB * impulse
        } else if j.hasAngleLimits {
            let lower = limitImpulse(c: angle - j.angleLower, cdot: wB - wA, mass: j.angularMass,
                                     accumulated: &j.lowerAngleImpulse, ctx, useBias: useBias)
            wA -= iA * lower
            wB += iB * lower
            let upper = limitImpulse(c: j.angleUpper - angle, cdot: wA - wB, mass: j.angularMass,
                                     accumulated: &j.upperAngleImpulse, ctx, useBias: useBias)
            wA += iA * upper
            wB -= iB * upper
        }
    }
    if j.slide {
        let perp = Vec2(-axis.y, axis.x)
        if j.hasTranslationLimits {
            let a1 = (d + rA).cross(axis), a2 = rB.cross(axis)
            let kAxial = mA + mB + iA * a1 * a1 + iB * a2 * a2
            if kAxial > 0 {
                let translation = axis.dot(d)
                let cdot = axis.dot(vB - vA) + a2 * wB - a1 * wA
                let lower = limitImpulse(c: translation - j.translationLower, cdot: cdot, mass: 1 / kAxial,
                                         accumulated: &j.lowerImpulse, ctx, useBias: useBias)
                vA = vA - axis * (mA * lower); wA -= iA * a1 * lower
                vB = vB + axis * (mB * lower); wB += iB * a2 * lower
                let cdotUp = -(axis.dot(vB - vA) + a2 * wB - a1 * wA)
                let upper = limitImpulse(c: j.translationUpper - translation, cdot: cdotUp, mass: 1 / kAxial,
                                         accumulated: &j.upperImpulse, ctx, useBias: useBias)
                vA = vA + axis * (mA * upper); wA += iA * a1 * upper
                vB = vB - axis * (mB * upper); wB -= iB * a2 * upper
            }
        }
        let a1 = (d + rA).cross(perp), a2 = rB.cross(perp)
        let kPerp = mA + mB + iA * a1 * a1 + iB * a2 * a2
        if kPerp > 0 {
            let c = perp.dot(d)
            let cdot = perp.dot(vB - vA) + a2 * wB - a1 * wA
            let bias = clampMagnitude(soft.biasRate * c, maxBias)
            let impulse = -soft.massScale / kPerp * (cdot + bias) - soft.impulseScale * j.perpImpulse
            j.perpImpulse += impulse
            vA = vA - perp * (mA * impulse); wA -= iA * a1 * impulse
            vB = vB + perp * (mB * impulse); wB += iB * a2 * impulse
        }
    }
    if j.point {
        let dv = vB + crossSV(wB, rB) - vA - crossSV(wA, rA)
        let bias = clampLength(d * soft.biasRate, maxBias)
        let k11 = mA + mB + iA * rA.y * rA.y + iB * rB.y * rB.y
        let k12 = -iA * rA.x * rA.y - iB * rB.x * rB.y
        let k22 = mA + mB + iA * rA.x * rA.x + iB * rB.x * rB.x
        var det = k11 * k22 - k12 * k12
        if det != 0 { det = 1 / det }
        let rhs = dv + bias
        let solved = Vec2(det * (k22 * rhs.x - k12 * rhs.y), det * (k11 * rhs.y - k12 * rhs.x))
        let impulse = solved * -soft.massScale - j.linearImpulse * soft.impulseScale
        j.linearImpulse += impulse
        vA = vA - impulse * mA
        wA -= iA * rA.cross(impulse)
        vB = vB + impulse * mB
        wB += iB * rB.cross(impulse)
    }
    joints[k] = j
    s[ia].v = vA; s[ia].w = wA
    s[ib].v = vB; s[ib].w = wB
}

func solveConstraintJoints(_ joints: UnsafeMutableBufferPointer<ConstraintJoint>, ids: UnsafeBufferPointer<Int32>,
                           _ sb: SolverBodies, _ ctx: JointSolverContext, h: Double, useBias: Bool) {
    for k in ids { solveConstraintJoint(joints, Int(k), sb, ctx, h: h, useBias: useBias) }
    sb.resetDummy()
}

/// One side of a limit (`c` >= 0 is allowed, `cdot` its rate): a non-negative accumulated impulse, speculative
/// while the limit is not reached, soft when it is violated. Returns the impulse to apply this iteration.
@inline(__always)
private func limitImpulse(c: Double, cdot: Double, mass: Double, accumulated: inout Double, _ ctx: JointSolverContext,
                          useBias: Bool) -> Double {
    var bias = 0.0, massScale = 1.0, impulseScale = 0.0
    if c > 0 {
        bias = c * ctx.invH
    } else if useBias {
        bias = clampMagnitude(ctx.jointSoft.biasRate * c, Tuning.maxLinearSpeed)
        massScale = ctx.jointSoft.massScale
        impulseScale = ctx.jointSoft.impulseScale
    }
    let impulse = -massScale * mass * (cdot + bias) - impulseScale * accumulated
    let next = max(accumulated + impulse, 0)
    let applied = next - accumulated
    accumulated = next
    return applied
}
