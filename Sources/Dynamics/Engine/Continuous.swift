/// Continuous collision (after Box2D v3's `b2SolveContinuous`, docs/ENGINE.md "Continuous collision"): after
/// the solve, a body that moved farther this step than the speculative window covers is swept from its pose at
/// the start of the step to the solver's end pose against the boundaries and anchored items in its path, and
/// stopped at the first time of impact (a linear slop before contact), keeping its velocity: the next step's
/// contact then meets it there. A body fast relative to its own size is a bullet: it is also swept against the
/// other items at their end poses (after the other fast bodies were stopped), so a fling or a hard tap cannot
/// carry it through another item. Another awake item is swept along its own motion of the step (relative
/// motion), so items falling side by side cost one evaluation, not a crawl along their common path. Two bullets
/// are swept against each other too (Box2D skips such pairs; two items flung at each other must meet): the pair
/// is stopped together at the fraction where they meet, both a linear slop apart, and the next step's contact
/// bounces them.
///
/// The time of impact is found by conservative advancement: the separation of the two shapes (a lower bound of
/// their distance, `shapeSeparation`) divided by the fastest rate at which the sweep can close it is a fraction
/// of the step that is safe to advance by; repeated until the shapes are within the target. A body that already
/// touches what it is swept against is swept with a small core disc instead (Box2D's core fallback), so that
/// sliding along a wall never stops it.
extension PhysicsWorld {
    /// The continuous stage: call after the solve (states hold the step's deltas), before `finalizeBodies`.
    mutating func solveContinuous() {
        let count = awakeBodies.count
        continuousStopsLastStep = 0
        guard count > 0 else { return }
        bulletSlots.removeAll(keepingCapacity: true)
        stoppedSlots.removeAll(keepingCapacity: true)
        stopFraction.removeAll(keepingCapacity: true)
        stopFraction.append(contentsOf: repeatElement(1, count: count))
        isBullet.removeAll(keepingCapacity: true)
        isBullet.append(contentsOf: repeatElement(false, count: count))
        var stopped = 0
        for slot in 0..<count {
            let i = Int(awakeBodies[slot])
            let da = turned[slot]
            let threshold = Tuning.speculativeDistance + Tuning.linearSlop
            // This loop visits every awake body every step: a body is read only if it may be fast.
            let moved = states[slot].dp.length
            guard moved + abs(da) * maxBodyReach > threshold else { continue }
            let motion = moved + (da == 0 ? 0 : abs(da) * reach(bodies[i]))
            guard motion > threshold else { continue }
            let inner = bodies[i].isCircle ? bodies[i].radius : bodies[i].innerRadius
            if motion > Tuning.bulletFraction * max(inner, Tuning.linearSlop) {
                bulletSlots.append(Int32(slot))
                isBullet[slot] = true
            }
            if sweep(slot, againstItems: false) { stopped += 1 }
        }
        if !stoppedSlots.isEmpty { stopTouchingNeighbours() }
        // Another bullet may come from farther than the fat boxes reach: the bullets' query boxes are grown by
        // the longest bullet motion, and a bullet found that way is kept only if the two swept boxes overlap.
        bulletReach = 0
        if bulletSlots.count > 1 {
            for slot in bulletSlots { bulletReach = max(bulletReach, sweptReach(Int(slot))) }
        }
        for slot in bulletSlots where sweep(Int(slot), againstItems: true) { stopped += 1 }
        continuousStopsLastStep = stopped
    }

    /// How far a point of body `b` reaches from its centre of mass.
    @inline(__always) private func reach(_ b: Body) -> Double { b.boundingRadius + b.localCentroid.length }

    /// How far any point of the body in solver slot `slot` moves this step (translation + turn × reach).
    @inline(__always) private func sweptReach(_ slot: Int) -> Double {
        states[slot].dp.length + abs(turned[slot]) * reach(bodies[Int(awakeBodies[slot])])
    }

    /// True when the bodies in solver slots `a` and `b` move so fast relative to each other that one could pass
    /// right through the other within the step (their relative translation reaches the sum of their bounding
    /// radii; turning carries no centre anywhere). Only such a pair of bullets is swept against each other. A
    /// slower pair ends the step overlapping at worst, and its contact then pushes it apart as any overlap is;
    /// sweeping it too stops every collision of two quick items a slop short and bounces it at full
    /// restitution, so a small elastic ball squeezed between the wall and a larger item gains speed at every
    /// bounce (in `energyStaysBoundedWithoutInput` one left at 2.4 × the fastest speed with the sum of the inner
    /// radii as the threshold).
    @inline(__always) private func crossing(_ a: Int, _ b: Int) -> Bool {
        let i = Int(awakeBodies[a]), j = Int(awakeBodies[b])
        return (states[a].dp - states[b].dp).length >= bodies[i].boundingRadius + bodies[j].boundingRadius
    }

    /// The box the body in solver slot `slot` sweeps this step: its start box and a disc around its end pose,
    /// grown by a slop.
    @inline(__always) private func sweptBox(_ slot: Int) -> AABB {
        let i = Int(awakeBodies[slot])
        let start = boxes[i], r = reach(bodies[i]) + Tuning.linearSlop
        let end = bodies[i].centerOfMass + states[slot].dp
        return AABB(minX: min(start.minX, end.x - r), minY: min(start.minY, end.y - r),
                    maxX: max(start.maxX, end.x + r), maxY: max(start.maxY, end.y + r))
    }

    /// Sweeps the body in solver slot `slot` against the static tree (with `againstItems`, the movable tree)
    /// and shortens its step's motion to the first impact; a bullet hit by a bullet is stopped at the same
    /// fraction of the step. Returns true when it was stopped.
    private mutating func sweep(_ slot: Int, againstItems: Bool) -> Bool {
        let i = Int(awakeBodies[slot])
        let dp = states[slot].dp, da = turned[slot]
        guard dp.lengthSquared > 0 || da != 0 else { return false }
        let box = sweptBox(slot)
        ccdCandidates.removeAll(keepingCapacity: true)
        var st: [Int32] = []
        swap(&st, &ccdStack)
        var nodes: [Int32] = []
        swap(&nodes, &ccdNodes)
        nodes.removeAll(keepingCapacity: true)
        // The queries only collect nodes: their closures capture nothing of the world (see `ccdNodes`).
        // The bullet pass sweeps against the other items only: the first pass already swept it against the
        // static tree.
        if !againstItems {
            broadPhase.staticTree.query(box, stack: &st) { n in nodes.append(n) }
            for n in nodes {
                let o = broadPhase.staticTree.userData(n)
                if collidable(body: i, owner: o) { ccdCandidates.append(o) }
            }
        } else {
            let reachOut = bulletReach
            let query = reachOut == 0 ? box : AABB(minX: box.minX - reachOut, minY: box.minY - reachOut,
                                                    maxX: box.maxX + reachOut, maxY: box.maxY + reachOut)
            broadPhase.movableTree.query(query, stack: &st) { n in nodes.append(n) }
            for n in nodes {
                let o = broadPhase.movableTree.userData(n)
                let s = Int(solverSlot[Int(o)])
                // Another bullet counts if the pair may cross and the two swept boxes overlap; anything else if
                // its fat box meets this bullet's swept box (the query box was grown for the bullets only).
                let near = s >= 0 && isBullet[s] ? crossing(slot, s) && sweptBox(s).overlaps(box)
                    : reachOut == 0 || broadPhase.movableTree.fatBox(n).overlaps(box)
                if near && collidable(body: i, owner: o) { ccdCandidates.append(o) }
            }
        }
        swap(&nodes, &ccdNodes)
        swap(&st, &ccdStack)
        guard !ccdCandidates.isEmpty else { return false }
        let (best, hit) = firstImpact(body: i, dp: dp, da: da, candidates: ccdCandidates)
        guard best < 1 else { return false }
        // A bullet that meets another bullet stops it too, where it was at that fraction of its own motion: the
        // other one's sweep cannot find this meeting any more (this one no longer goes there), and running on it
        // would end inside this one.
        if againstItems && hit >= 0 {
            let other = Int(solverSlot[Int(hit)])
            if other >= 0 && isBullet[other] { stop(other, at: best * stopFraction[other]) }
        }
        stop(slot, at: best * stopFraction[slot])
        return true
    }

    /// The earliest impact of body `i` moving by `dp` and turning by `da` with one of `candidates`: its fraction
    /// of the step (1: none) and whom it meets. Not mutating on purpose: its closures read the world in place,
    /// where a mutating method's closures would copy all of it (see `ccdNodes`). The vertex scratch (4 × the
    /// most vertices a shape may have) lives on the stack.
    private func firstImpact(body i: Int, dp: Vec2, da: Double, candidates: [Int32]) -> (Double, Int32) {
        var best = 1.0, hit: Int32 = -1
        let m = ShapeGeometry.maxPolygonVertices
        withUnsafeTemporaryAllocation(of: Vec2.self, capacity: 4 * m) { buffer in
            let base = buffer.baseAddress!
            base.initialize(repeating: .zero, count: 4 * m)
            segmentVertices.withUnsafeBufferPointer { sv in
                segmentNormals.withUnsafeBufferPointer { sn in
                    let scratch = SweepScratch(verticesA: base, normalsA: base + m, verticesB: base + 2 * m,
                                               normalsB: base + 3 * m,
                                               segmentVertices: sv.baseAddress ?? UnsafePointer(base),
                                               segmentNormals: sn.baseAddress ?? UnsafePointer(base))
                    for o in candidates {
                        if let t = timeOfImpact(body: i, dp: dp, da: da, against: o, before: best, scratch), t < best {
                            best = t
                            hit = o
                        }
                    }
                }
            }
        }
        return (best, hit)
    }

    /// Shortens the step's motion of solver slot `slot` to `fraction` of what the solver gave it.
    private mutating func stop(_ slot: Int, at fraction: Double) {
        let scale = fraction / stopFraction[slot]
        let dp = states[slot].dp
        states[slot].delta.x = Float(dp.x * scale)
        states[slot].delta.y = Float(dp.y * scale)
        turned[slot] *= scale
        stopFraction[slot] = fraction
        stoppedSlots.append(Int32(slot))
    }

    /// A stack falls together: the solver moved the bodies touching a stopped body with it, so a fast body in
    /// contact with one (points within the speculative distance, solved this step) is stopped at the same
    /// fraction of the step, and so on through the stack. Without this, a box riding on a box that hit the
    /// floor would run on into it by the rest of the step's motion and be thrown off by the push-out.
    private mutating func stopTouchingNeighbours() {
        var next = 0
        while next < stoppedSlots.count {
            let slot = Int(stoppedSlots[next])
            next += 1
            let i = Int(awakeBodies[slot]), fraction = stopFraction[slot]
            var c = contactHead[i]
            while c >= 0 {
                let k = Int(c)
                let other = contacts[k].bodyA == Int32(i) ? contacts[k].bodyB : contacts[k].bodyA
                if other >= 0 && contacts[k].pointCount > 0 && !contacts[k].passes {
                    let s = Int(solverSlot[Int(other)])
                    if s >= 0 && stopFraction[s] > fraction
                        && states[s].dp.length > Tuning.speculativeDistance + Tuning.linearSlop {
                        stop(s, at: fraction)
                    }
                }
                c = nextContact(c, ofBody: i)
            }
        }
    }

    /// The fraction of the step at which body `i`, moving by `dp` and turning by `da` about its centre of mass,
    /// first comes within a linear slop of `owner` (a segment, an anchored or sleeping body as it is, or an awake
    /// body along its own motion of this step, so that two items falling side by side never meet), if earlier
    /// than `before`.
    private func timeOfImpact(body i: Int, dp: Vec2, da: Double, against owner: Int32, before: Double,
                              _ scratch: SweepScratch) -> Double? {
        let b = bodies[i]
        // The other body's motion this step (none for a segment, an anchored or a sleeping body).
        var odp = Vec2.zero, oda = 0.0, oreach = 0.0
        if owner >= 0 {
            let s = Int(solverSlot[Int(owner)])
            if s >= 0 {
                odp = states[s].dp
                oda = turned[s]
                oreach = reach(bodies[Int(owner)])
            }
        }
        let moving = odp != .zero || oda != 0
        let fixed = moving ? nil : otherView(owner, at: 0, dp: odp, da: oda, scratch)
        @inline(__always) func other(_ t: Double) -> ShapeView {
            fixed ?? otherView(owner, at: t, dp: odp, da: oda, scratch)
        }
        let rate = (dp - odp).length + abs(da) * reach(b) + abs(oda) * oreach
        let first = advance(rate: rate, before: before) { t in
            shapeSeparation(self.fastView(i, dp: dp, da: da, at: t, scratch), other(t))
        }
        guard let first else { return nil }
        if first > 0 { return first }
        // Touching at the start: sweep a core disc instead, so that a body sliding along a wall is not stopped.
        let core = 0.25 * (b.isCircle ? b.radius : b.innerRadius)
        guard core > 0 else { return nil }
        let coreRate = (dp - odp).length + abs(da) * b.localCentroid.length + abs(oda) * oreach
        let t = advance(rate: coreRate, before: before) { t in
            let pose = self.pose(b, dp: dp, da: da, at: t)
            let disc = ShapeView(isCircle: true, radius: core, center: pose.center, vertices: scratch.segmentVertices,
                                 normals: scratch.segmentNormals, count: 0)
            return shapeSeparation(disc, other(t))
        }
        guard let t, t > 0 else { return nil }
        return t
    }

    /// Conservative advancement from t = 0: nil when the shapes stay apart until `before`, else the fraction
    /// at which their separation came within the target (0 when they start within it).
    @inline(__always) private func advance(rate: Double, before: Double, _ separation: (Double) -> Double) -> Double? {
        let target = Tuning.linearSlop, tolerance = 0.25 * Tuning.linearSlop
        guard rate > 0 else { return nil }
        var t = 0.0
        var s = separation(0)
        for _ in 0..<32 {
            if s <= target + tolerance { return t }
            t += (s - target) / rate
            if t >= before { return nil }
            s = separation(t)
        }
        return t
    }

    /// Body `b`'s item centre and rotation at fraction `t` of a motion `dp`, `da` of its centre of mass.
    @inline(__always) private func pose(_ b: Body, dp: Vec2, da: Double, at t: Double) -> (center: Vec2, rot: Rot) {
        let rot = da == 0 ? b.rot : Rot(angle: b.angle + da * t)
        let com = b.centerOfMass + dp * t
        return (b.localCentroid == .zero ? com : com - rot.rotate(b.localCentroid), rot)
    }

    /// The fast body's shape at fraction `t` (its vertices in the `ccdVerticesA` scratch).
    private func fastView(_ i: Int, dp: Vec2, da: Double, at t: Double, _ scratch: SweepScratch) -> ShapeView {
        let b = bodies[i]
        let p = pose(b, dp: dp, da: da, at: t)
        if b.isCircle {
            return ShapeView(isCircle: true, radius: b.radius, center: p.center, vertices: scratch.segmentVertices,
                             normals: scratch.segmentNormals, count: 0)
        }
        for k in 0..<b.vertexCount {
            scratch.verticesA[k] = p.center + p.rot.rotate(localVertices[b.vertexStart + k])
            scratch.normalsA[k] = p.rot.rotate(localNormals[b.vertexStart + k])
        }
        return ShapeView(isCircle: false, radius: 0, center: p.center, vertices: UnsafePointer(scratch.verticesA),
                         normals: UnsafePointer(scratch.normalsA), count: b.vertexCount)
    }

    /// What a body is swept against: a segment or a body that does not move as they are, an awake body at
    /// fraction `t` of its motion `dp`, `da` (its vertices in the scratch's B buffers).
    private func otherView(_ owner: Int32, at t: Double, dp: Vec2, da: Double, _ scratch: SweepScratch) -> ShapeView {
        if owner < 0 {
            let seg = segments[Int(-1 - owner)]
            return ShapeView(isCircle: false, radius: 0, center: seg.a,
                             vertices: scratch.segmentVertices + seg.vertexStart,
                             normals: scratch.segmentNormals + seg.vertexStart, count: 2)
        }
        let b = bodies[Int(owner)]
        let p = pose(b, dp: dp, da: da, at: t)
        if b.isCircle {
            return ShapeView(isCircle: true, radius: b.radius, center: p.center, vertices: scratch.segmentVertices,
                             normals: scratch.segmentNormals, count: 0)
        }
        for k in 0..<b.vertexCount {
            scratch.verticesB[k] = p.center + p.rot.rotate(localVertices[b.vertexStart + k])
            scratch.normalsB[k] = p.rot.rotate(localNormals[b.vertexStart + k])
        }
        return ShapeView(isCircle: false, radius: 0, center: p.center, vertices: UnsafePointer(scratch.verticesB),
                         normals: UnsafePointer(scratch.normalsB), count: b.vertexCount)
    }
}

/// Where the continuous stage builds the swept shapes' vertices (the world's `ccdScratch`, allocated once),
/// and the boundary segments' vertex pools.
struct SweepScratch {
    var verticesA: UnsafeMutablePointer<Vec2>
    var normalsA: UnsafeMutablePointer<Vec2>
    var verticesB: UnsafeMutablePointer<Vec2>
    var normalsB: UnsafeMutablePointer<Vec2>
    var segmentVertices: UnsafePointer<Vec2>
    var segmentNormals: UnsafePointer<Vec2>
}
