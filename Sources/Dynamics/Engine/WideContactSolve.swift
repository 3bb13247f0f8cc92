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

    /// No softness (the relax pass): rigid.
    @inline(__always) init(rigid: Void) {
        biasRate = FloatW(repeating: 0)
        massScale = FloatW(repeating: 1)
        impulseScale = FloatW(repeating: 0)
    }
}

/// One chunk's solve (`useBias`) or relax pass (Box2D v3's `b2SolveContactTwoPointsTask`): both points' normal
/// impulses one after the other, then both points' friction. Two points are solved one after the other, as
/// Box2D v3 does, except where both are still apart by more than `Tuning.linearSlop` (a fast item arriving):
/// those lanes are solved as one rigid 2×2 problem (`solveChunkWithBlock`), so the item arrives flat instead
/// of being spun point by point through a thin wall (docs/ENGINE.md, "Contact solver"). Written flat, on
/// locals, so that the velocities stay in registers; the chunk is read and written in place through its
/// pointer, field by field. `LanePair` holds the same arithmetic for the rarer passes (block lanes,
/// restitution). Its two passes (`solveChunkBiased`, `solveChunkRelaxed`) are not inlined into the colour loop:
/// inlined there, the function grew past the optimizer's inlining budget and one point's normal impulse stayed
/// a call.
@inline(__always)
func solveChunk(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>, invH: Float,
                useBias: Bool) {
    if useBias { solveChunkBiased(c, s, invH: invH) } else { solveChunkRelaxed(c, s, invH: invH) }
}

/// `solveChunk` of the solve pass, compiled apart from the relax pass's: with `useBias` a run-time flag inside one
/// body, the optimizer kept the flag's branches in the lane code.
@inline(never)
func solveChunkBiased(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>, invH: Float) {
    solveChunkPass(c, s, invH: invH, useBias: true)
}

/// `solveChunk` of the relax pass.
@inline(never)
func solveChunkRelaxed(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>, invH: Float) {
    solveChunkPass(c, s, invH: invH, useBias: false)
}

@inline(__always)
private func solveChunkPass(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>, invH: Float,
                            useBias: Bool) {
    let A = LaneBodies(s, c.pointee.slotA), B = LaneBodies(s, c.pointee.slotB)
    let k = LaneConstants(c, A, B)
    // Positions do not change during a velocity pass, so each point's separation is computed once.
    let p1 = c.point1, p2 = c.point2
    let sep1 = k.separation(p1, A, B), sep2 = k.separation(p2, A, B)
    let gap = FloatW(repeating: Float(Tuning.linearSlop))
    if any((c.pointee.block .!= 0) .& (sep1 .> gap) .& (sep2 .> gap)) {
        solveChunkWithBlock(c, s, invH: invH, useBias: useBias)
        return
    }
    var v = LaneVelocities(A, B)
    var soft = LaneSoftness(rigid: ())
    if useBias { soft = LaneSoftness(c) }
    // `normalImpulse` for both points, written out: as two calls, the optimizer (past its inlining budget for
    // this function) kept one out of line, a call that spills the velocities every chunk.
    let zero = FloatW(repeating: 0), maxPush = FloatW(repeating: -Float(Tuning.contactPushMaxVelocity))
    do {
        let apart = sep1 .> 0
        var bias = useBias ? laneMax(soft.biasRate * sep1, maxPush) : zero
        bias.replace(with: sep1 * invH, where: apart)
        let massScale = soft.massScale.replacing(with: 1, where: apart)
        let impulseScale = soft.impulseScale.replacing(with: 0, where: apart)
        let rAx = p1.pointee.anchorAX, rAy = p1.pointee.anchorAY, rBx = p1.pointee.anchorBX, rBy = p1.pointee.anchorBY
        let dvx = (v.vBx - v.wB * rBy) - (v.vAx - v.wA * rAy)
        let dvy = (v.vBy + v.wB * rBx) - (v.vAy + v.wA * rAx)
        let vn = dvx * k.nx + dvy * k.ny
        let old = p1.pointee.normalImpulse
        var impulse = -p1.pointee.normalMass * massScale * (vn + bias) - impulseScale * old
        let newImpulse = laneMax(old + impulse, zero)
        impulse = newImpulse - old
        p1.pointee.normalImpulse = newImpulse
        p1.pointee.maxNormalImpulse = laneMax(p1.pointee.maxNormalImpulse, impulse)
        v.apply(k, rAx, rAy, rBx, rBy, k.nx * impulse, k.ny * impulse)
    }
    do {
        let apart = sep2 .> 0
        var bias = useBias ? laneMax(soft.biasRate * sep2, maxPush) : zero
        bias.replace(with: sep2 * invH, where: apart)
        let massScale = soft.massScale.replacing(with: 1, where: apart)
        let impulseScale = soft.impulseScale.replacing(with: 0, where: apart)
        let rAx = p2.pointee.anchorAX, rAy = p2.pointee.anchorAY, rBx = p2.pointee.anchorBX, rBy = p2.pointee.anchorBY
        let dvx = (v.vBx - v.wB * rBy) - (v.vAx - v.wA * rAy)
        let dvy = (v.vBy + v.wB * rBx) - (v.vAy + v.wA * rAx)
        let vn = dvx * k.nx + dvy * k.ny
        let old = p2.pointee.normalImpulse
        var impulse = -p2.pointee.normalMass * massScale * (vn + bias) - impulseScale * old
        let newImpulse = laneMax(old + impulse, zero)
        impulse = newImpulse - old
        p2.pointee.normalImpulse = newImpulse
        p2.pointee.maxNormalImpulse = laneMax(p2.pointee.maxNormalImpulse, impulse)
        v.apply(k, rAx, rAy, rBx, rBy, k.nx * impulse, k.ny * impulse)
    }
    let friction = c.pointee.friction
    frictionImpulse(&v, p1, k, friction)
    frictionImpulse(&v, p2, k, friction)
    LaneBodies.scatter(s, c.pointee.slotA, v.vAx, v.vAy, v.wA)
    LaneBodies.scatter(s, c.pointee.slotB, v.vBx, v.vBy, v.wB)
}

/// Both sides' velocities while a chunk is solved (a plain value passed `inout`, so that it stays in registers
/// and nothing captures it).
struct LaneVelocities {
    var vAx: FloatW, vAy: FloatW, wA: FloatW, vBx: FloatW, vBy: FloatW, wB: FloatW

    @inline(__always) init(_ A: LaneBodies, _ B: LaneBodies) {
        vAx = A.vx; vAy = A.vy; wA = A.w; vBx = B.vx; vBy = B.vy; wB = B.w
    }

    @inline(__always) mutating func apply(_ k: LaneConstants, _ rAx: FloatW, _ rAy: FloatW, _ rBx: FloatW,
                                          _ rBy: FloatW, _ px: FloatW, _ py: FloatW) {
        vAx -= px * k.mA
        vAy -= py * k.mA
        wA -= k.iA * (rAx * py - rAy * px)
        vBx += px * k.mB
        vBy += py * k.mB
        wB += k.iB * (rBx * py - rBy * px)
    }
}

/// What a chunk's solve reads but never writes: masses, normal, and the position deltas between the sides.
struct LaneConstants {
    let mA: FloatW, iA: FloatW, mB: FloatW, iB: FloatW, nx: FloatW, ny: FloatW, dpx: FloatW, dpy: FloatW

    @inline(__always) init(_ c: UnsafeMutablePointer<ContactChunk>, _ A: LaneBodies, _ B: LaneBodies) {
        mA = c.pointee.invMassA; iA = c.pointee.invIA; mB = c.pointee.invMassB; iB = c.pointee.invIB
        nx = c.pointee.normalX; ny = c.pointee.normalY
        dpx = B.dpx - A.dpx; dpy = B.dpy - A.dpy
    }

    /// `LanePair.separation`.
    @inline(__always) func separation(_ p: UnsafeMutablePointer<LanePoint>, _ A: LaneBodies, _ B: LaneBodies)
        -> FloatW {
        let rAx = p.pointee.anchorAX, rAy = p.pointee.anchorAY, rBx = p.pointee.anchorBX, rBy = p.pointee.anchorBY
        let x = dpx + (B.qc * rBx - B.qs * rBy) - (A.qc * rAx - A.qs * rAy)
        let y = dpy + (B.qs * rBx + B.qc * rBy) - (A.qs * rAx + A.qc * rAy)
        return (x * nx + y * ny) + p.pointee.adjustedSeparation
    }
}

/// `LanePair.friction` on `LaneVelocities`.
@inline(__always)
func frictionImpulse(_ v: inout LaneVelocities, _ p: UnsafeMutablePointer<LanePoint>, _ k: LaneConstants,
                     _ friction: FloatW) {
    let rAx = p.pointee.anchorAX, rAy = p.pointee.anchorAY, rBx = p.pointee.anchorBX, rBy = p.pointee.anchorBY
    let dvx = (v.vBx - v.wB * rBy) - (v.vAx - v.wA * rAy)
    let dvy = (v.vBy + v.wB * rBx) - (v.vAy + v.wA * rAx)
    // t = (n.y, -n.x)
    let vt = dvx * k.ny - dvy * k.nx
    let old = p.pointee.tangentImpulse
    var impulse = -p.pointee.tangentMass * vt
    let maxFriction = friction * p.pointee.normalImpulse
    let newImpulse = laneMin(laneMax(old + impulse, -maxFriction), maxFriction)
    impulse = newImpulse - old
    p.pointee.tangentImpulse = newImpulse
    v.apply(k, rAx, rAy, rBx, rBy, k.ny * impulse, -k.nx * impulse)
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
    let A = LaneBodies(velocities: s, c.pointee.slotA), B = LaneBodies(velocities: s, c.pointee.slotB)
    let k = LaneConstants(c, A, B)
    var v = LaneVelocities(A, B)
    warmStartPoint(&v, c.point1, k)
    warmStartPoint(&v, c.point2, k)
    LaneBodies.scatter(s, c.pointee.slotA, v.vAx, v.vAy, v.wA)
    LaneBodies.scatter(s, c.pointee.slotB, v.vBx, v.vBy, v.wB)
}

/// One point's accumulated impulses, P = n × normal impulse + t × tangent impulse with t = (n.y, -n.x).
@inline(__always)
func warmStartPoint(_ v: inout LaneVelocities, _ p: UnsafeMutablePointer<LanePoint>, _ k: LaneConstants) {
    let ni = p.pointee.normalImpulse, ti = p.pointee.tangentImpulse
    v.apply(k, p.pointee.anchorAX, p.pointee.anchorAY, p.pointee.anchorBX, p.pointee.anchorBY,
            k.nx * ni + k.ny * ti, k.ny * ni - k.nx * ti)
}
