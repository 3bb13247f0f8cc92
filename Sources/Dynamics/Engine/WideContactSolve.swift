/// Both sides of a chunk's constraints with the impulse steps that move them (methods rather than closures, so
/// that the compiler sees every access statically). The arithmetic is `ScalarPair`'s, lane-wise and in the
/// same order, so a lane and the scalar solve of the same constraint agree bit for bit.
struct LanePair {
    var A: LaneBodies
    var B: LaneBodies
    let mA: FloatW, iA: FloatW, mB: FloatW, iB: FloatW
    let nx: FloatW, ny: FloatW

    @inline(__always) init(_ c: UnsafeMutablePointer<ContactChunk>, _ A: LaneBodies, _ B: LaneBodies) {
        self.A = A
        self.B = B
        mA = c.pointee.invMassA; iA = c.pointee.invIA; mB = c.pointee.invMassB; iB = c.pointee.invIB
        nx = c.pointee.normalX; ny = c.pointee.normalY
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
    @inline(__always) mutating func normal(_ p: inout LanePoint, _ sep: FloatW, _ soft: LaneSoftness, invH: Float,
                                           useBias: Bool) {
        let apart = sep .> 0
        var bias = FloatW(repeating: 0), massScale = FloatW(repeating: 1), impulseScale = FloatW(repeating: 0)
        if useBias {
            bias = laneMax(soft.biasRate * sep, FloatW(repeating: -Float(Tuning.contactPushMaxVelocity)))
            massScale = soft.massScale
            impulseScale = soft.impulseScale
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
    @inline(__always) mutating func blockSolve(_ c: UnsafeMutablePointer<ContactChunk>, _ t1: FloatW, _ t2: FloatW,
                                               _ x1Old: FloatW, _ x2Old: FloatW) -> (FloatW, FloatW) {
        let (dv1x, dv1y) = relativeVelocity(c.pointee.p1)
        let (dv2x, dv2y) = relativeVelocity(c.pointee.p2)
        let vn1 = dv1x * nx + dv1y * ny, vn2 = dv2x * nx + dv2y * ny
        let k11 = c.pointee.k11, k12 = c.pointee.k12, k22 = c.pointee.k22
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
        apply(c.pointee.p1, nx * d1, ny * d1)
        apply(c.pointee.p2, nx * d2, ny * d2)
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

/// A chunk's contact softness, read once per pass.
struct LaneSoftness {
    var biasRate: FloatW
    var massScale: FloatW
    var impulseScale: FloatW

    @inline(__always) init(_ c: UnsafeMutablePointer<ContactChunk>) {
        biasRate = c.pointee.biasRate
        massScale = c.pointee.massScale
        impulseScale = c.pointee.impulseScale
    }
}

/// One chunk's solve (`useBias`) or relax pass (Box2D v3's `b2SolveContactTwoPointsTask`): both points' normal
/// impulses one after the other, then both points' friction. Two points are solved one after the other, as
/// Box2D v3 does, except where both are still apart by more than `Tuning.linearSlop` (a fast item arriving):
/// those lanes are solved as one rigid 2×2 problem (`solveChunkWithBlock`), so the item arrives flat instead of being spun point by point through a
/// thin wall (docs/ENGINE.md, "Contact solver"). Written flat, on locals, so that the velocities stay in
/// registers; the chunk is read and written in place through its pointer, field by field. `LanePair` holds
/// the same arithmetic for the rarer passes (block lanes, restitution).
@inline(__always)
func solveChunk(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>, invH: Float,
                useBias: Bool) {
    let A = LaneBodies(s, c.pointee.slotA), B = LaneBodies(s, c.pointee.slotB)
    let nx = c.pointee.normalX, ny = c.pointee.normalY
    // Positions do not change during a velocity pass, so each point's separation is computed once.
    let dpx = B.dpx - A.dpx, dpy = B.dpy - A.dpy
    @inline(__always) func separation(_ p: UnsafeMutablePointer<LanePoint>) -> FloatW {
        let rAx = p.pointee.anchorAX, rAy = p.pointee.anchorAY, rBx = p.pointee.anchorBX, rBy = p.pointee.anchorBY
        let x = dpx + (B.qc * rBx - B.qs * rBy) - (A.qc * rAx - A.qs * rAy)
        let y = dpy + (B.qs * rBx + B.qc * rBy) - (A.qs * rAx + A.qc * rAy)
        return (x * nx + y * ny) + p.pointee.adjustedSeparation
    }
    let p1 = c.point1, p2 = c.point2
    let sep1 = separation(p1), sep2 = separation(p2)
    let gap = FloatW(repeating: Float(Tuning.linearSlop))
    if any((c.pointee.block .!= 0) .& (sep1 .> gap) .& (sep2 .> gap)) {
        solveChunkWithBlock(c, s, invH: invH, useBias: useBias)
        return
    }
    let mA = c.pointee.invMassA, iA = c.pointee.invIA, mB = c.pointee.invMassB, iB = c.pointee.invIB
    var vAx = A.vx, vAy = A.vy, wA = A.w, vBx = B.vx, vBy = B.vy, wB = B.w
    var biasRate = FloatW(repeating: 0), massScale = FloatW(repeating: 1), impulseScale = FloatW(repeating: 0)
    if useBias {
        biasRate = c.pointee.biasRate
        massScale = c.pointee.massScale
        impulseScale = c.pointee.impulseScale
    }
    let maxPush = FloatW(repeating: -Float(Tuning.contactPushMaxVelocity))
    let zero = FloatW(repeating: 0), one = FloatW(repeating: 1)
    @inline(__always) func normal(_ p: UnsafeMutablePointer<LanePoint>, _ sep: FloatW) {
        let apart = sep .> 0
        var bias = useBias ? laneMax(biasRate * sep, maxPush) : zero
        bias.replace(with: sep * invH, where: apart)
        let ms = massScale.replacing(with: one, where: apart)
        let isc = impulseScale.replacing(with: zero, where: apart)
        let rAx = p.pointee.anchorAX, rAy = p.pointee.anchorAY, rBx = p.pointee.anchorBX, rBy = p.pointee.anchorBY
        let dvx = (vBx - wB * rBy) - (vAx - wA * rAy)
        let dvy = (vBy + wB * rBx) - (vAy + wA * rAx)
        let vn = dvx * nx + dvy * ny
        let old = p.pointee.normalImpulse
        var impulse = -p.pointee.normalMass * ms * (vn + bias) - isc * old
        let newImpulse = laneMax(old + impulse, zero)
        impulse = newImpulse - old
        p.pointee.normalImpulse = newImpulse
        p.pointee.maxNormalImpulse = laneMax(p.pointee.maxNormalImpulse, impulse)
        let px = nx * impulse, py = ny * impulse
        vAx -= px * mA
        vAy -= py * mA
        wA -= iA * (rAx * py - rAy * px)
        vBx += px * mB
        vBy += py * mB
        wB += iB * (rBx * py - rBy * px)
    }
    normal(p1, sep1)
    normal(p2, sep2)
    let friction = c.pointee.friction
    @inline(__always) func tangent(_ p: UnsafeMutablePointer<LanePoint>) {
        let rAx = p.pointee.anchorAX, rAy = p.pointee.anchorAY, rBx = p.pointee.anchorBX, rBy = p.pointee.anchorBY
        let dvx = (vBx - wB * rBy) - (vAx - wA * rAy)
        let dvy = (vBy + wB * rBx) - (vAy + wA * rAx)
        // t = (n.y, -n.x)
        let vt = dvx * ny - dvy * nx
        let old = p.pointee.tangentImpulse
        var impulse = -p.pointee.tangentMass * vt
        let maxFriction = friction * p.pointee.normalImpulse
        let newImpulse = laneMin(laneMax(old + impulse, -maxFriction), maxFriction)
        impulse = newImpulse - old
        p.pointee.tangentImpulse = newImpulse
        let px = ny * impulse, py = -nx * impulse
        vAx -= px * mA
        vAy -= py * mA
        wA -= iA * (rAx * py - rAy * px)
        vBx += px * mB
        vBy += py * mB
        wB += iB * (rBx * py - rBy * px)
    }
    tangent(p1)
    tangent(p2)
    LaneBodies.scatter(s, c.pointee.slotA, vAx, vAy, wA)
    LaneBodies.scatter(s, c.pointee.slotB, vBx, vBy, wB)
}

/// `solveChunk` for a chunk with a lane whose two points are both apart by more than the slop and block-solvable.
@inline(never)
func solveChunkWithBlock(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>,
                         invH: Float, useBias: Bool) {
    var pair = LanePair(c, LaneBodies(s, c.pointee.slotA), LaneBodies(s, c.pointee.slotB))
    let soft = LaneSoftness(c)
    let sep1 = pair.separation(c.pointee.p1), sep2 = pair.separation(c.pointee.p2)
    let gap = FloatW(repeating: Float(Tuning.linearSlop))
    let rigid = (c.pointee.block .!= 0) .& (sep1 .> gap) .& (sep2 .> gap)
    var before = pair
    let x1Old = c.pointee.p1.normalImpulse, x2Old = c.pointee.p2.normalImpulse
    let m1Old = c.pointee.p1.maxNormalImpulse, m2Old = c.pointee.p2.maxNormalImpulse
    pair.normal(&c.pointee.p1, sep1, soft, invH: invH, useBias: useBias)
    pair.normal(&c.pointee.p2, sep2, soft, invH: invH, useBias: useBias)
    let zero = FloatW(repeating: 0)
    let (x1, x2) = before.blockSolve(c, -laneMax(sep1, zero) * invH, -laneMax(sep2, zero) * invH, x1Old, x2Old)
    pair.take(before, where: rigid)
    c.pointee.p1.normalImpulse.replace(with: x1, where: rigid)
    c.pointee.p2.normalImpulse.replace(with: x2, where: rigid)
    c.pointee.p1.maxNormalImpulse.replace(with: laneMax(m1Old, x1 - x1Old), where: rigid)
    c.pointee.p2.maxNormalImpulse.replace(with: laneMax(m2Old, x2 - x2Old), where: rigid)
    let friction = c.pointee.friction
    pair.friction(&c.pointee.p1, friction)
    pair.friction(&c.pointee.p2, friction)
    pair.A.scatter(s, c.pointee.slotA)
    pair.B.scatter(s, c.pointee.slotB)
}

/// One chunk's warm start: the accumulated impulses of the last step (or sub-step) applied again.
@inline(__always)
func warmStartChunk(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>) {
    var pair = LanePair(c, LaneBodies(velocities: s, c.pointee.slotA), LaneBodies(velocities: s, c.pointee.slotB))
    @inline(__always) func impulse(_ ni: FloatW, _ ti: FloatW) -> (FloatW, FloatW) {
        // P = n * normalImpulse + t * tangentImpulse with t = (n.y, -n.x).
        (pair.nx * ni + pair.ny * ti, pair.ny * ni - pair.nx * ti)
    }
    let (p1x, p1y) = impulse(c.pointee.p1.normalImpulse, c.pointee.p1.tangentImpulse)
    pair.apply(c.pointee.p1, p1x, p1y)
    let (p2x, p2y) = impulse(c.pointee.p2.normalImpulse, c.pointee.p2.tangentImpulse)
    pair.apply(c.pointee.p2, p2x, p2y)
    pair.A.scatter(s, c.pointee.slotA)
    pair.B.scatter(s, c.pointee.slotB)
}
