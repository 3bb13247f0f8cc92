/// Four lanes of `Double`: one lane per constraint of a colour.
typealias Lanes = SIMD4<Double>
typealias LaneMask = SIMDMask<SIMD4<Int64>>

/// Lane-wise `max` with the scalar `Swift.max`'s choice (`b` where `b >= a`), kept inline as a select.
@inline(__always) func laneMax(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .>= a) }
/// Lane-wise `min` with the scalar `Swift.min`'s choice (`b` where `b < a`).
@inline(__always) func laneMin(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .< a) }

/// The velocity state of four constraints' bodies on one side, gathered from the solver bodies.
private struct WideBody {
    var vx, vy, w, m, i, dpx, dpy, qc, qs: Lanes

    @inline(__always) init(_ s: UnsafeMutablePointer<SolverBody>, _ b0: Int, _ b1: Int, _ b2: Int, _ b3: Int) {
        let s0 = s[b0], s1 = s[b1], s2 = s[b2], s3 = s[b3]
        vx = Lanes(s0.v.x, s1.v.x, s2.v.x, s3.v.x)
        vy = Lanes(s0.v.y, s1.v.y, s2.v.y, s3.v.y)
        w = Lanes(s0.w, s1.w, s2.w, s3.w)
        m = Lanes(s0.invMass, s1.invMass, s2.invMass, s3.invMass)
        i = Lanes(s0.invI, s1.invI, s2.invI, s3.invI)
        dpx = Lanes(s0.dp.x, s1.dp.x, s2.dp.x, s3.dp.x)
        dpy = Lanes(s0.dp.y, s1.dp.y, s2.dp.y, s3.dp.y)
        qc = Lanes(s0.dq.c, s1.dq.c, s2.dq.c, s3.dq.c)
        qs = Lanes(s0.dq.s, s1.dq.s, s2.dq.s, s3.dq.s)
    }

    /// Writes the velocities back; a body that does not move may sit in several lanes and gets back its own value.
    @inline(__always) func scatter(_ s: UnsafeMutablePointer<SolverBody>, _ b0: Int, _ b1: Int, _ b2: Int, _ b3: Int) {
        s[b0].v = Vec2(vx[0], vy[0]); s[b0].w = w[0]
        s[b1].v = Vec2(vx[1], vy[1]); s[b1].w = w[1]
        s[b2].v = Vec2(vx[2], vy[2]); s[b2].w = w[2]
        s[b3].v = Vec2(vx[3], vy[3]); s[b3].w = w[3]
    }
}

/// Both sides of four constraints, with the impulse steps that move them (methods rather than closures, so
/// that the compiler sees every access statically).
private struct WidePair {
    var A: WideBody
    var B: WideBody
    let nx: Lanes
    let ny: Lanes

    @inline(__always) func relativeVelocity(_ p: WidePoint) -> (Lanes, Lanes) {
        let dvx = B.vx + (-B.w * p.rBy) - A.vx - (-A.w * p.rAy)
        let dvy = B.vy + B.w * p.rBx - A.vy - A.w * p.rAx
        return (dvx, dvy)
    }

    @inline(__always) mutating func applyImpulse(_ p: WidePoint, _ px: Lanes, _ py: Lanes) {
        A.vx -= px * A.m
        A.vy -= py * A.m
        A.w -= A.i * (p.rAx * py - p.rAy * px)
        B.vx += px * B.m
        B.vy += py * B.m
        B.w += B.i * (p.rBx * py - p.rBy * px)
    }

    @inline(__always) mutating func normalPart(_ p: inout WidePoint, _ sep: Lanes, _ active: LaneMask, useBias: Bool,
                                               invH: Double, _ soft: (Lanes, Lanes, Lanes)) {
        let apart = sep .> 0
        var bias = Lanes(repeating: 0), massScale = Lanes(repeating: 1), impulseScale = Lanes(repeating: 0)
        if useBias {
            bias = laneMax(soft.0 * sep, Lanes(repeating: -Tuning.contactPushMaxVelocity))
            massScale = soft.1
            impulseScale = soft.2
        }
        bias.replace(with: sep * invH, where: apart)
        massScale.replace(with: 1, where: apart)
        impulseScale.replace(with: 0, where: apart)
        let (dvx, dvy) = relativeVelocity(p)
        let vn = dvx * nx + dvy * ny
        var impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse
        let newImpulse = laneMax(p.normalImpulse + impulse, Lanes(repeating: 0))
        impulse = (newImpulse - p.normalImpulse).replacing(with: 0, where: .!active)
        p.normalImpulse.replace(with: newImpulse, where: active)
        p.maxNormalImpulse.replace(with: laneMax(p.maxNormalImpulse, impulse), where: active)
        applyImpulse(p, nx * impulse, ny * impulse)
    }

    @inline(__always) mutating func frictionPart(_ p: inout WidePoint, _ active: LaneMask, _ friction: Lanes) {
        let (dvx, dvy) = relativeVelocity(p)
        // t = (n.y, -n.x)
        let vt = dvx * ny + dvy * (-nx)
        var impulse = -p.tangentMass * vt
        let maxFriction = friction * p.normalImpulse
        let newImpulse = laneMin(laneMax(p.tangentImpulse + impulse, -maxFriction), maxFriction)
        impulse = (newImpulse - p.tangentImpulse).replacing(with: 0, where: .!active)
        p.tangentImpulse.replace(with: newImpulse, where: active)
        applyImpulse(p, ny * impulse, -nx * impulse)
    }
}

/// One contact point of four constraints.
private struct WidePoint {
    var rAx, rAy, rBx, rBy, adjustedSeparation, normalImpulse, tangentImpulse, maxNormalImpulse: Lanes
    var normalMass, tangentMass: Lanes

    @inline(__always) init(_ p0: ConstraintPoint, _ p1: ConstraintPoint, _ p2: ConstraintPoint, _ p3: ConstraintPoint) {
        rAx = Lanes(p0.anchorA.x, p1.anchorA.x, p2.anchorA.x, p3.anchorA.x)
        rAy = Lanes(p0.anchorA.y, p1.anchorA.y, p2.anchorA.y, p3.anchorA.y)
        rBx = Lanes(p0.anchorB.x, p1.anchorB.x, p2.anchorB.x, p3.anchorB.x)
        rBy = Lanes(p0.anchorB.y, p1.anchorB.y, p2.anchorB.y, p3.anchorB.y)
        adjustedSeparation = Lanes(p0.adjustedSeparation, p1.adjustedSeparation, p2.adjustedSeparation,
                                   p3.adjustedSeparation)
        normalImpulse = Lanes(p0.normalImpulse, p1.normalImpulse, p2.normalImpulse, p3.normalImpulse)
        tangentImpulse = Lanes(p0.tangentImpulse, p1.tangentImpulse, p2.tangentImpulse, p3.tangentImpulse)
        maxNormalImpulse = Lanes(p0.maxNormalImpulse, p1.maxNormalImpulse, p2.maxNormalImpulse, p3.maxNormalImpulse)
        normalMass = Lanes(p0.normalMass, p1.normalMass, p2.normalMass, p3.normalMass)
        tangentMass = Lanes(p0.tangentMass, p1.tangentMass, p2.tangentMass, p3.tangentMass)
    }

    @inline(__always) func store(_ lane: Int, _ p: inout ConstraintPoint) {
        p.normalImpulse = normalImpulse[lane]
        p.tangentImpulse = tangentImpulse[lane]
        p.maxNormalImpulse = maxNormalImpulse[lane]
    }
}

/// The contact solve colour by colour, four constraints at a time in `SIMD4<Double>` lanes, with the arithmetic
/// of `solveContact` done lane-wise: the branches (speculative or touching, rigid block or point by point,
/// one or two points, friction or none) become masks. Each colour's remainder and the overflow colour are
/// solved by the scalar `solveContact`.
func solveContactsWide(_ cs: UnsafeMutableBufferPointer<ContactConstraint>, _ s: UnsafeMutablePointer<SolverBody>,
                       dummy: Int, _ ctx: ContactSolverContext, useBias: Bool, colouring: ContactColouring) {
    colouring.order.withUnsafeBufferPointer { order in
        let n = ContactColouring.colourCount
        for c in 0..<n {
            var k = colouring.starts[c]
            let end = colouring.starts[c + 1]
            while k + 4 <= end {
                solveFour(cs, s, Int(order[k]), Int(order[k + 1]), Int(order[k + 2]), Int(order[k + 3]), ctx,
                          useBias: useBias)
                k += 4
            }
            while k < end {
                solveContact(&cs[Int(order[k])], s, ctx, useBias: useBias)
                k += 1
            }
        }
        for k in colouring.starts[n]..<order.count {
            solveContact(&cs[Int(order[k])], s, ctx, useBias: useBias)
        }
    }
    s[dummy].v = .zero
    s[dummy].w = 0
}

@inline(__always)
private func solveFour(_ cs: UnsafeMutableBufferPointer<ContactConstraint>, _ s: UnsafeMutablePointer<SolverBody>,
                       _ k0: Int, _ k1: Int, _ k2: Int, _ k3: Int, _ ctx: ContactSolverContext, useBias: Bool) {
    let c0 = cs[k0], c1 = cs[k1], c2 = cs[k2], c3 = cs[k3]
    let a0 = Int(c0.bodyA), a1 = Int(c1.bodyA), a2 = Int(c2.bodyA), a3 = Int(c3.bodyA)
    let b0 = Int(c0.bodyB), b1 = Int(c1.bodyB), b2 = Int(c2.bodyB), b3 = Int(c3.bodyB)
    let nx = Lanes(c0.normal.x, c1.normal.x, c2.normal.x, c3.normal.x)
    let ny = Lanes(c0.normal.y, c1.normal.y, c2.normal.y, c3.normal.y)
    var pair = WidePair(A: WideBody(s, a0, a1, a2, a3), B: WideBody(s, b0, b1, b2, b3), nx: nx, ny: ny)
    let two = SIMD4<Int64>(Int64(c0.pointCount), Int64(c1.pointCount), Int64(c2.pointCount),
                           Int64(c3.pointCount)) .> 1
    let block = SIMD4<Int64>(c0.block ? 1 : 0, c1.block ? 1 : 0, c2.block ? 1 : 0, c3.block ? 1 : 0) .!= 0
    let againstStatic = SIMD4<Int64>(c0.againstStatic ? 1 : 0, c1.againstStatic ? 1 : 0, c2.againstStatic ? 1 : 0,
                                     c3.againstStatic ? 1 : 0) .!= 0
    let friction = Lanes(c0.friction, c1.friction, c2.friction, c3.friction)
    var p0 = WidePoint(c0.p0, c1.p0, c2.p0, c3.p0)
    var p1 = WidePoint(c0.p1, c1.p1, c2.p1, c3.p1)
    let invH = ctx.invH
    let soft = (
        Lanes(repeating: ctx.soft.biasRate).replacing(with: ctx.staticSoft.biasRate, where: againstStatic),
        Lanes(repeating: ctx.soft.massScale).replacing(with: ctx.staticSoft.massScale, where: againstStatic),
        Lanes(repeating: ctx.soft.impulseScale).replacing(with: ctx.staticSoft.impulseScale, where: againstStatic))
    let A0 = pair.A, B0 = pair.B
    let dpx = B0.dpx - A0.dpx, dpy = B0.dpy - A0.dpy
    @inline(__always) func separation(_ p: WidePoint) -> Lanes {
        let x = dpx + (B0.qc * p.rBx - B0.qs * p.rBy) - (A0.qc * p.rAx - A0.qs * p.rAy)
        let y = dpy + (B0.qs * p.rBx + B0.qc * p.rBy) - (A0.qs * p.rAx + A0.qc * p.rAy)
        return (x * nx + y * ny) + p.adjustedSeparation
    }
    let sep0 = separation(p0)
    let sep1 = separation(p1).replacing(with: 0, where: .!two)
    // Rigid block lanes: relax passes, and speculative two-point contacts with both points apart.
    var rigid = block
    if useBias { rigid = rigid .& (sep0 .> 0) .& (sep1 .> 0) }
    pair.normalPart(&p0, sep0, .!rigid, useBias: useBias, invH: invH, soft)
    pair.normalPart(&p1, sep1, two .& .!rigid, useBias: useBias, invH: invH, soft)
    if any(rigid) {
        // The 2x2 LCP from the velocities before the point-by-point lanes moved them.
        var rigidPair = WidePair(A: A0, B: B0, nx: nx, ny: ny)
        let (dv1x, dv1y) = rigidPair.relativeVelocity(p0)
        let (dv2x, dv2y) = rigidPair.relativeVelocity(p1)
        let vn1 = dv1x * nx + dv1y * ny, vn2 = dv2x * nx + dv2y * ny
        let x1Old = p0.normalImpulse, x2Old = p1.normalImpulse
        let k11 = Lanes(c0.k11, c1.k11, c2.k11, c3.k11)
        let k12 = Lanes(c0.k12, c1.k12, c2.k12, c3.k12)
        let k22 = Lanes(c0.k22, c1.k22, c2.k22, c3.k22)
        let zero = Lanes(repeating: 0)
        let rhs1 = vn1 + laneMax(sep0, zero) * invH - (k11 * x1Old + k12 * x2Old)
        let rhs2 = vn2 + laneMax(sep1, zero) * invH - (k12 * x1Old + k22 * x2Old)
        // Box2D's case order, applied last-to-first so that the earlier case wins where several hold.
        var x1 = zero, x2 = zero
        let only2 = -rhs2 / k22
        let case2 = (only2 .>= 0) .& (k12 * only2 + rhs1 .>= 0)
        x1.replace(with: 0, where: case2)
        x2.replace(with: only2, where: case2)
        let only1 = -rhs1 / k11
        let case1 = (only1 .>= 0) .& (k12 * only1 + rhs2 .>= 0)
        x1.replace(with: only1, where: case1)
        x2.replace(with: 0, where: case1)
        let det = k11 * k22 - k12 * k12
        let both1 = -(k22 * rhs1 - k12 * rhs2) / det, both2 = -(k11 * rhs2 - k12 * rhs1) / det
        let both = (both1 .>= 0) .& (both2 .>= 0)
        x1.replace(with: both1, where: both)
        x2.replace(with: both2, where: both)
        let d1 = (x1 - x1Old).replacing(with: 0, where: .!rigid)
        let d2 = (x2 - x2Old).replacing(with: 0, where: .!rigid)
        p0.normalImpulse.replace(with: x1, where: rigid)
        p1.normalImpulse.replace(with: x2, where: rigid)
        p0.maxNormalImpulse.replace(with: laneMax(p0.maxNormalImpulse, d1), where: rigid)
        p1.maxNormalImpulse.replace(with: laneMax(p1.maxNormalImpulse, d2), where: rigid)
        let p1x = nx * d1, p1y = ny * d1, p2x = nx * d2, p2y = ny * d2
        rigidPair.A.vx -= (p1x + p2x) * A0.m
        rigidPair.A.vy -= (p1y + p2y) * A0.m
        rigidPair.A.w -= A0.i * ((p0.rAx * p1y - p0.rAy * p1x) + (p1.rAx * p2y - p1.rAy * p2x))
        rigidPair.B.vx += (p1x + p2x) * B0.m
        rigidPair.B.vy += (p1y + p2y) * B0.m
        rigidPair.B.w += B0.i * ((p0.rBx * p1y - p0.rBy * p1x) + (p1.rBx * p2y - p1.rBy * p2x))
        pair.A.vx.replace(with: rigidPair.A.vx, where: rigid)
        pair.A.vy.replace(with: rigidPair.A.vy, where: rigid)
        pair.A.w.replace(with: rigidPair.A.w, where: rigid)
        pair.B.vx.replace(with: rigidPair.B.vx, where: rigid)
        pair.B.vy.replace(with: rigidPair.B.vy, where: rigid)
        pair.B.w.replace(with: rigidPair.B.w, where: rigid)
    }
    let withFriction = friction .> 0
    if any(withFriction) {
        pair.frictionPart(&p0, withFriction, friction)
        pair.frictionPart(&p1, withFriction .& two, friction)
    }
    pair.A.scatter(s, a0, a1, a2, a3)
    pair.B.scatter(s, b0, b1, b2, b3)
    p0.store(0, &cs[k0].p0); p0.store(1, &cs[k1].p0); p0.store(2, &cs[k2].p0); p0.store(3, &cs[k3].p0)
    p1.store(0, &cs[k0].p1); p1.store(1, &cs[k1].p1); p1.store(2, &cs[k2].p1); p1.store(3, &cs[k3].p1)
}
