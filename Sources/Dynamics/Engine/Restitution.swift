/// Restitution as UIKit's engine (Box2D 2.x) applies it, on top of Box2D v3's soft step: after the
/// sub-steps, when some contact point approached faster than `Tuning.restitutionThreshold` before the step
/// (measured by the prepare stage) and was pushed during it, every active contact of the step is solved
/// together for `Tuning.restitutionIterations` rigid passes: bouncing points toward a normal velocity of
/// e × their approach speed, all others toward not approaching (points that were apart at the start of the
/// step may still close their current gap). The two points of a face are solved as one 2×2 problem, so a flat
/// face bounces flat, and a stack that falls together leaves the floor together instead of launching its top
/// item. The passes run chunk by chunk in lanes (and the overflow scalar) with the same arithmetic.

extension LanePair {
    /// Per lane, the normal velocity a point is solved toward.
    @inline(__always) func restitutionTarget(_ p: LanePoint, _ e: FloatW, invH: Float) -> FloatW {
        let sep = separation(p)
        var t = -laneMax(sep, FloatW(repeating: 0)) * invH
        t.replace(with: 0, where: p.startSeparation .<= Float(Tuning.linearSlop))
        let bounce = (e .> 0) .& (p.relativeVelocity .< -Float(Tuning.restitutionThreshold))
            .& (p.maxNormalImpulse .> 0)
        t.replace(with: -e * p.relativeVelocity, where: bounce)
        return t
    }

    /// One point toward normal velocity `t` (rigid, no friction).
    @inline(__always) mutating func restitutionPoint(_ p: inout LanePoint, _ t: FloatW) {
        let (dvx, dvy) = relativeVelocity(p)
        let vn = dvx * nx + dvy * ny
        var impulse = -p.normalMass * (vn - t)
        let newImpulse = laneMax(p.normalImpulse + impulse, FloatW(repeating: 0))
        impulse = newImpulse - p.normalImpulse
        p.normalImpulse = newImpulse
        apply(p, nx * impulse, ny * impulse)
    }
}

/// One restitution pass over a chunk: point by point, and in the block lanes both points at once.
@inline(__always)
func restitutionChunk(_ c: UnsafeMutablePointer<ContactChunk>, _ s: UnsafeMutablePointer<SolverBody>, invH: Float) {
    var pair = LanePair(c, LaneBodies(s, c.pointee.slotA), LaneBodies(s, c.pointee.slotB))
    let e = c.pointee.restitution
    let t1 = pair.restitutionTarget(c.pointee.p1, e, invH: invH)
    let t2 = pair.restitutionTarget(c.pointee.p2, e, invH: invH)
    let before = pair
    let x1Old = c.pointee.p1.normalImpulse, x2Old = c.pointee.p2.normalImpulse
    pair.restitutionPoint(&c.pointee.p1, t1)
    pair.restitutionPoint(&c.pointee.p2, t2)
    let block = c.pointee.block .!= 0
    if any(block) {
        // Both points from the velocities before this pass, where the face is solved as one.
        var rigid = before
        let (x1, x2) = rigid.blockSolve(c, t1, t2, x1Old, x2Old)
        pair.take(rigid, where: block)
        c.pointee.p1.normalImpulse.replace(with: x1, where: block)
        c.pointee.p2.normalImpulse.replace(with: x2, where: block)
    }
    pair.A.scatter(s, c.pointee.slotA)
    pair.B.scatter(s, c.pointee.slotB)
}

/// One restitution pass over a scalar (overflow) constraint: a chunk of one lane.
func restitutionContact(_ c: inout ContactConstraint, _ s: UnsafeMutablePointer<SolverBody>, dummy: Int,
                        invH: Float) {
    var chunk = ContactChunk(dummy: dummy)
    if c.pointCount < 2 { c.p2 = ConstraintPoint() }
    chunk.set(0, c)
    withUnsafeMutablePointer(to: &chunk) { restitutionChunk($0, s, invH: invH) }
    c.p1.normalImpulse = chunk.p1.normalImpulse[0]
    c.p2.normalImpulse = chunk.p2.normalImpulse[0]
}

@inline(__always) private func bounces(_ p: ConstraintPoint, _ e: Float) -> Bool {
    e > 0 && p.relativeVelocity < -Float(Tuning.restitutionThreshold) && p.maxNormalImpulse > 0
}

extension ContactSolver {
    /// True when some contact point bounces this step (the restitution passes are skipped otherwise).
    func needsRestitution() -> Bool {
        let thr = FloatW(repeating: -Float(Tuning.restitutionThreshold))
        for c in chunks where any(c.restitution .> 0) {
            let e = c.restitution .> 0
            if any(e .& (c.p1.relativeVelocity .< thr) .& (c.p1.maxNormalImpulse .> 0))
                || any(e .& (c.p2.relativeVelocity .< thr) .& (c.p2.maxNormalImpulse .> 0)) { return true }
        }
        for c in overflow where bounces(c.p1, c.restitution) || bounces(c.p2, c.restitution) { return true }
        return false
    }

    /// The normal impulses before the restitution passes: restored after them, so the next step warm-starts
    /// from the resting load and not from the one-off bounce (which would push a stack apart).
    mutating func saveNormalImpulses() {
        savedChunkImpulses.removeAll(keepingCapacity: true)
        for c in chunks {
            savedChunkImpulses.append(c.p1.normalImpulse)
            savedChunkImpulses.append(c.p2.normalImpulse)
        }
        savedOverflowImpulses.removeAll(keepingCapacity: true)
        for c in overflow {
            savedOverflowImpulses.append(c.p1.normalImpulse)
            savedOverflowImpulses.append(c.p2.normalImpulse)
        }
    }

    mutating func restoreNormalImpulses() {
        for k in 0..<chunks.count {
            chunks[k].p1.normalImpulse = savedChunkImpulses[2 * k]
            chunks[k].p2.normalImpulse = savedChunkImpulses[2 * k + 1]
        }
        for k in 0..<overflow.count {
            overflow[k].p1.normalImpulse = savedOverflowImpulses[2 * k]
            overflow[k].p2.normalImpulse = savedOverflowImpulses[2 * k + 1]
        }
    }
}
