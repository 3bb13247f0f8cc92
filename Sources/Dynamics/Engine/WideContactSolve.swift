/// Both sides of a chunk's constraints with the impulse steps that move them (methods rather than closures, so
/// that the compiler sees every access statically). The arithmetic is `ScalarPair`'s, lane-wise and in the
/// same order, so a lane and the scalar solve of the same constraint agree bit for bit.
struct LanePair {
    var A: LaneBodies
    var B: LaneBodies
    let mA: FloatW, iA: FloatW, mB: FloatW, iB: FloatW
    let nx: FloatW, ny: FloatW

    @inline(__always) init(_ c: ContactChunk, _ A: LaneBodies, _ B: LaneBodies) {
        self.A = A
        self.B = B
        mA = c.invMassA; iA = c.invIA; mB = c.invMassB; iB = c.invIB
        nx = c.normalX; ny = c.normalY
    }

    /// Current separation of a point: the start separation moved by the bodies' position and rotation deltas.
    @inline(__always) func separation(_ p: LanePoint) -> FloatW {
        let x = (B.dpx - A.dpx) + (B.qc * p.anchorBX - B.qs * p.anchorBY) - (A.qc * p.anchorAX - A.qs * p.anchorAY)
        let y = (B.dpy - A.dpy) + (B.qs * p.anchorBX + B.qc * p.anchorBY) - (A.qs * p.anchorAX + A.qc * p.anchorAY)
        return (x * nx + y * ny) + p.adjustedSeparation
    }

    /// Relative velocity of B's anchor against A's (the anchors fixed for the step, Box2D's soft step).
    @inline(__always) func relativeVelocity(_ p: LanePoint) -> (FloatW, FloatW) {
        let dvx = (B.vx - B.w * p.anchorBY) - (A.vx - A.w * p.anchorAY)
        let dvy = (B.vy + B.w * p.anchorBX) - (A.vy + A.w * p.anchorAX)
        return (dvx, dvy)
    }

    @inline(__always) mutating func apply(_ p: LanePoint, _ px: FloatW, _ py: FloatW) {
        A.vx -= px * mA
        A.vy -= py * mA
        A.w -= iA * (p.anchorAX * py - p.anchorAY * px)
        B.vx += px * mB
        B.vy += py * mB
        B.w += iB * (p.anchorBX * py - p.anchorBY * px)
    }

    /// The normal impulse of one point: soft push-out while penetrating (`useBias`), rigid when relaxing,
    /// speculative (may close the gap this sub-step, no more) while apart.
    @inline(__always) mutating func normal(_ p: inout LanePoint, _ sep: FloatW, _ c: ContactChunk, invH: Float,
                                           useBias: Bool) {
        let apart = sep .> 0
        var bias = FloatW(repeating: 0), massScale = FloatW(repeating: 1), impulseScale = FloatW(repeating: 0)
        if useBias {
            bias = laneMax(c.biasRate * sep, FloatW(repeating: -Float(Tuning.contactPushMaxVelocity)))
            massScale = c.massScale
            impulseScale = c.impulseScale
        }
        bias.replace(with: sep * invH, where: apart)
        massScale.replace(with: 1, where: apart)
        impulseScale.replace(with: 0, where: apart)
        let (dvx, dvy) = relativeVelocity(p)
        let vn = dvx * nx + dvy * ny
        var impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse
        let newImpulse = laneMax(p.normalImpulse + impulse, FloatW(repeating: 0))
        impulse = newImpulse - p.normalImpulse
        p.normalImpulse = newImpulse
        p.maxNormalImpulse = laneMax(p.maxNormalImpulse, impulse)
        apply(p, nx * impulse, ny * impulse)
    }

    /// Coulomb friction of one point, bounded by friction × its normal impulse.
    @inline(__always) mutating func friction(_ p: inout LanePoint, _ friction: FloatW) {
        let (dvx, dvy) = relativeVelocity(p)
        // t = (n.y, -n.x)
        let vt = dvx * ny - dvy * nx
        var impulse = -p.tangentMass * vt
        let maxFriction = friction * p.normalImpulse
        let newImpulse = laneMin(laneMax(p.tangentImpulse + impulse, -maxFriction), maxFriction)
        impulse = newImpulse - p.tangentImpulse
        p.tangentImpulse = newImpulse
        apply(p, ny * impulse, -nx * impulse)
    }
}

extension LanePair {
    /// Both normal points at once toward normal velocities `t1`, `t2` (Box2D 2.4's block solver: the 2×2 LCP
    /// w = K x + b ≥ 0, x ≥ 0, w·x = 0 on the accumulated impulses), from this pair's velocities, applied to
    /// every lane; returns the new accumulated impulses. The cases in Box2D's order, applied last to first so
    /// that the earlier case wins where several hold.
    @inline(__always) mutating func blockSolve(_ c: ContactChunk, _ t1: FloatW, _ t2: FloatW, _ x1Old: FloatW,
                                               _ x2Old: FloatW) -> (FloatW, FloatW) {
        let (dv1x, dv1y) = relativeVelocity(c.p1)
        let (dv2x, dv2y) = relativeVelocity(c.p2)
        let vn1 = dv1x * nx + dv1y * ny, vn2 = dv2x * nx + dv2y * ny
        let k11 = c.k11, k12 = c.k12, k22 = c.k22
        let b1 = vn1 - t1 - (k11 * x1Old + k12 * x2Old)
        let b2 = vn2 - t2 - (k12 * x1Old + k22 * x2Old)
        let zero = FloatW(repeating: 0)
        var x1 = zero, x2 = zero
        let only2 = -b2 / k22
        let case2 = (only2 .>= 0) .& (k12 * only2 + b1 .>= 0)
        x2.replace(with: only2, where: case2)
        let only1 = -b1 / k11
        let case1 = (only1 .>= 0) .& (k12 * only1 + b2 .>= 0)
        x1.replace(with: only1, where: case1)
        x2.replace(with: 0, where: case1)
        let det = k11 * k22 - k12 * k12
        let both1 = -(k22 * b1 - k12 * b2) / det, both2 = -(k11 * b2 - k12 * b1) / det
        let both = (both1 .>= 0) .& (both2 .>= 0)
        x1.replace(with: both1, where: both)
        x2.replace(with: both2, where: both)
        let d1 = x1 - x1Old, d2 = x2 - x2Old
        apply(c.p1, nx * d1, ny * d1)
        apply(c.p2, nx * d2, ny * d2)
        return (x1, x2)
    }

    /// The lanes of `other` where `mask` holds.
    @inline(__always) mutating func take(_ other: LanePair, where mask: MaskW) {
        A.vx.replace(with: other.A.vx, where: mask)
        A.vy.replace(with: other.A.vy, where: mask)
        A.w.replace(with: other.A.w, where: mask)
        B.vx.replace(with: other.B.vx, where: mask)
        B.vy.replace(with: other.B.vy, where: mask)
        B.w.replace(with: other.B.w, where: mask)
    }
}

/// One chunk's solve (`useBias`) or relax pass (Box2D v3's `b2SolveContactTwoPointsTask`): both points' normal
/// impulses one after the other, then both points' friction. Two points are solved one after the other, as
/// Box2D v3 does, except where both are still apart (a fast item arriving): those lanes are solved as one rigid
/// 2×2 problem, so the item arrives flat instead of being spun point by point through a thin wall
/// (docs/ENGINE.md, "Contact solver").
@inline(__always)
func solveChunk(_ c: inout ContactChunk, _ s: UnsafeMutablePointer<SolverBody>, invH: Float, useBias: Bool) {
    var pair = LanePair(c, LaneBodies(s, c.slotA), LaneBodies(s, c.slotB))
    // Positions do not change during a velocity pass, so each point's separation is computed once.
    let sep1 = pair.separation(c.p1), sep2 = pair.separation(c.p2)
    let rigid = (c.block .!= 0) .& (sep1 .> 0) .& (sep2 .> 0)
    if any(rigid) {
        var before = pair
        let x1Old = c.p1.normalImpulse, x2Old = c.p2.normalImpulse
        let m1Old = c.p1.maxNormalImpulse, m2Old = c.p2.maxNormalImpulse
        pair.normal(&c.p1, sep1, c, invH: invH, useBias: useBias)
        pair.normal(&c.p2, sep2, c, invH: invH, useBias: useBias)
        let zero = FloatW(repeating: 0)
        let (x1, x2) = before.blockSolve(c, -laneMax(sep1, zero) * invH, -laneMax(sep2, zero) * invH, x1Old, x2Old)
        pair.take(before, where: rigid)
        c.p1.normalImpulse.replace(with: x1, where: rigid)
        c.p2.normalImpulse.replace(with: x2, where: rigid)
        c.p1.maxNormalImpulse.replace(with: laneMax(m1Old, x1 - x1Old), where: rigid)
        c.p2.maxNormalImpulse.replace(with: laneMax(m2Old, x2 - x2Old), where: rigid)
    } else {
        pair.normal(&c.p1, sep1, c, invH: invH, useBias: useBias)
        pair.normal(&c.p2, sep2, c, invH: invH, useBias: useBias)
    }
    pair.friction(&c.p1, c.friction)
    pair.friction(&c.p2, c.friction)
    pair.A.scatter(s, c.slotA)
    pair.B.scatter(s, c.slotB)
}

/// One chunk's warm start: the accumulated impulses of the last step (or sub-step) applied again.
@inline(__always)
func warmStartChunk(_ c: ContactChunk, _ s: UnsafeMutablePointer<SolverBody>) {
    var pair = LanePair(c, LaneBodies(velocities: s, c.slotA), LaneBodies(velocities: s, c.slotB))
    @inline(__always) func impulse(_ p: LanePoint) -> (FloatW, FloatW) {
        // P = n * normalImpulse + t * tangentImpulse with t = (n.y, -n.x).
        (pair.nx * p.normalImpulse + pair.ny * p.tangentImpulse, pair.ny * p.normalImpulse - pair.nx * p.tangentImpulse)
    }
    let (p1x, p1y) = impulse(c.p1)
    pair.apply(c.p1, p1x, p1y)
    let (p2x, p2y) = impulse(c.p2)
    pair.apply(c.p2, p2x, p2y)
    pair.A.scatter(s, c.slotA)
    pair.B.scatter(s, c.slotB)
}
