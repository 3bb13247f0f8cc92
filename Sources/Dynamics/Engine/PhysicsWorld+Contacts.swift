extension PhysicsWorld {
    /// Moves the proxies of awake bodies to their boxes grown by half the speculative distance (two boxes then
    /// overlap once their shapes are within it; a boundary's box is grown by the other half), reinserting and
    /// buffering a proxy for pair finding only when its box left its fat box. The boxes are not grown with
    /// speed: a fast body is kept from passing through things by continuous collision (Engine/Continuous.swift),
    /// not by speculative contacts along its path. The predicted motion only makes a reinserted fat box reach
    /// ahead (DynamicTree.moveProxy). Sleeping and static bodies cost nothing.
    /// Also notes each awake body's `stepMotion` for the passing test (Engine/PassingContacts.swift).
    /// Two passes: the shapes' world geometry, boxes and motions in blocks of bodies (each body's own entries;
    /// docs/ENGINE.md, "Parallel step"), then the tree moves on this thread in `awakeBodies` order.
    mutating func prepareProxies() {
        let e = 0.5 * Tuning.speculativeDistance
        let reach = Tuning.maxLinearSpeed * dt
        let dt = self.dt
        let count = awakeBodies.count
        proxiesPreparedLastStep = count
        let stages = ParallelStages(workers, awakeBodies: count)
        // The arrays written are moved out of `self` for the loop and written through pointers, each body's
        // entries by one block.
        var motionArray: [StepMotion] = [], boxArray: [AABB] = [], expansionArray: [Double] = []
        var wvArray: [Vec2] = [], wnArray: [Vec2] = [], aheadArray: [Vec2] = []
        swap(&motionArray, &stepMotion); swap(&boxArray, &boxes); swap(&expansionArray, &expansion)
        swap(&wvArray, &worldVertices); swap(&wnArray, &worldNormals); swap(&aheadArray, &lookAhead)
        defer {
            swap(&motionArray, &stepMotion); swap(&boxArray, &boxes); swap(&expansionArray, &expansion)
            swap(&wvArray, &worldVertices); swap(&wnArray, &worldNormals); swap(&aheadArray, &lookAhead)
        }
        aheadArray.removeAll(keepingCapacity: true)
        aheadArray.append(contentsOf: repeatElement(.zero, count: count))
        let bodyArray = bodies, awake = awakeBodies, lvArray = localVertices, lnArray = localNormals
        bodyArray.withUnsafeBufferPointer { bb in
        awake.withUnsafeBufferPointer { ab in
        lvArray.withUnsafeBufferPointer { lv in
        lnArray.withUnsafeBufferPointer { ln in
        motionArray.withUnsafeMutableBufferPointer { mb in
        boxArray.withUnsafeMutableBufferPointer { xb in
        expansionArray.withUnsafeMutableBufferPointer { eb in
        wvArray.withUnsafeMutableBufferPointer { wv in
        wnArray.withUnsafeMutableBufferPointer { wn in
        aheadArray.withUnsafeMutableBufferPointer { hb in
            stages.run(count, minPerBlock: 64) { range in
                for slot in range {
                    let i = Int(ab[slot])
                    // Field by field through the pointer: a `Body` read whole is a copy of the whole record.
                    let b = bb.baseAddress! + i
                    let velocity = b.pointee.velocity, gravity = b.pointee.gravity, force = b.pointee.force
                    let accel = clampLength(gravity + force * b.pointee.invMass, Tuning.maxAcceleration)
                    let predicted = force == .zero ? gravity : accel
                    let w = b.pointee.angularVelocity
                    mb[i] = StepMotion(displacement: (velocity + predicted * (0.5 * dt)) * dt,
                                       turn: w == 0 ? 0 : min(abs(w) * dt, 2)
                                           * (b.pointee.boundingRadius + b.pointee.localCentroid.length))
                    hb[slot] = clampLength((velocity + accel * dt) * dt, reach)
                    let center = b.pointee.center
                    var box: AABB
                    if b.pointee.isCircle {
                        let r = b.pointee.radius
                        box = AABB(minX: center.x - r, minY: center.y - r, maxX: center.x + r, maxY: center.y + r)
                    } else {
                        let rot = b.pointee.rot, first = b.pointee.vertexStart
                        box = AABB(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
                        for k in first ..< first + b.pointee.vertexCount {
                            let v = center + rot.rotate(lv[k])
                            wv[k] = v
                            wn[k] = rot.rotate(ln[k])
                            box.minX = min(box.minX, v.x); box.minY = min(box.minY, v.y)
                            box.maxX = max(box.maxX, v.x); box.maxY = max(box.maxY, v.y)
                        }
                    }
                    box.minX -= e; box.maxX += e
                    box.minY -= e; box.maxY += e
                    xb[i] = box
                    eb[i] = e
                }
            }
        }
        }
        }
        }
        }
        }
        }
        }
        }
        }
        for slot in 0..<count {
            let i = Int(awakeBodies[slot])
            if bodyProxy[i] >= 0 { broadPhase.moveProxy(bodyProxy[i], boxArray[i], displacement: aheadArray[slot]) }
        }
    }

    private static func shapeView(body i: Int, _ bb: UnsafeBufferPointer<Body>, _ wv: UnsafePointer<Vec2>,
                           _ wn: UnsafePointer<Vec2>) -> ShapeView {
        // Field by field through the pointer: a `Body` read whole is a copy of the whole record.
        let start = bb[i].vertexStart
        return ShapeView(isCircle: bb[i].isCircle, radius: bb[i].radius, center: bb[i].center,
                         vertices: wv + start, normals: wn + start, count: bb[i].vertexCount)
    }

    /// Lists the contacts with at least one awake body into `awakeContacts`. While at least half the bodies
    /// are awake, in id order (a scan of the contacts' edges): the narrow phase, the prepare stage and the
    /// impulse store then walk the persistent contacts front to back instead of hopping through them list by
    /// list (in a 5 050-box pyramid, 4 MB of contacts). Otherwise each awake body's list in ascending body
    /// order, a contact between two awake bodies from the smaller one: O(awake contacts), so a mostly sleeping
    /// world pays only for what is awake. Either way the order is a function of the world's state alone.
    mutating func buildAwakeContacts() {
        var list: [Int32] = []
        swap(&list, &awakeContacts)
        list.removeAll(keepingCapacity: true)
        let mostlyAwake = 2 * awakeBodies.count >= bodies.count
        bodies.withUnsafeBufferPointer { bb in
            contactEdges.withUnsafeBufferPointer { eb in
                contactHead.withUnsafeBufferPointer { hb in
                    if mostlyAwake {
                        for c in 0..<eb.count {
                            let e = eb[c]
                            guard e.bodyA >= 0 else { continue }
                            if bb[Int(e.bodyA)].isDynamicAwake || (e.bodyB >= 0 && bb[Int(e.bodyB)].isDynamicAwake) {
                                list.append(Int32(c))
                            }
                        }
                        return
                    }
                    for i in awakeBodies {
                        var c = hb[Int(i)]
                        while c >= 0 {
                            let e = eb[Int(c)]
                            let isA = e.bodyA == i
                            let other = isA ? e.bodyB : e.bodyA
                            if other < 0 || other > i || !bb[Int(other)].isDynamicAwake { list.append(c) }
                            c = isA ? e.nextA : e.nextB
                        }
                    }
                }
            }
        }
        swap(&list, &awakeContacts)
        awakeContactsBodyCount = awakeBodies.count
    }

    /// Brings `awakeContacts` up to date after islands woke bodies (bodies only wake between the contact
    /// update and the solve, so an unchanged awake count means an unchanged list).
    mutating func refreshAwakeContacts() {
        if awakeBodies.count != awakeContactsBodyCount { buildAwakeContacts() }
    }

    /// The contact phase of a step: pair events from the broad phase create contacts, then every contact with an
    /// awake body is updated: destroyed if its fat boxes no longer overlap, else given a fresh manifold
    /// warm-started from its previous one by feature id. Began/ended events come from the touching state, with
    /// hysteresis; the island hooks hear when a manifold gains its first point or loses its last. Contacts of
    /// sleeping bodies keep their manifold and impulses untouched.
    ///
    /// Two passes, as Box2D's collide task and its serial state update: the manifolds are updated in place,
    /// recording only the contacts whose state changed; then those changes (destruction, events, island hooks)
    /// are applied in the same order.
    mutating func updateContacts() {
        createContactsForNewPairs()
        buildAwakeContacts()
        var ids: [Int32] = [], cs: [Contact] = [], changes: [ContactChange] = []
        swap(&ids, &awakeContacts)
        swap(&cs, &contacts)
        swap(&changes, &contactChanges)
        changes.removeAll(keepingCapacity: true)
        cs.withUnsafeMutableBufferPointer { cb in updateManifolds(ids, cb, &changes) }
        swap(&ids, &awakeContacts)
        swap(&cs, &contacts)
        var destroyed = false
        for change in changes {
            destroyed = destroyed || change.kind.contains(.destroy)
            apply(change)
        }
        swap(&changes, &contactChanges)
        if destroyed {
            // The solver must not see freed ids: drop them, keeping the order.
            var kept = 0
            for k in 0..<awakeContacts.count where contacts[Int(awakeContacts[k])].bodyA >= 0 {
                awakeContacts[kept] = awakeContacts[k]
                kept += 1
            }
            awakeContacts.removeLast(awakeContacts.count - kept)
        }
    }

    /// Pass one: a fresh manifold for each contact in `ids` (in place), the state changes into `changes`.
    /// Split over the workers in blocks of contacts (docs/ENGINE.md, "Parallel step"): each contact is written by
    /// its block only, each block lists its changes apart, and the lists are joined in block order, so the
    /// changes come out in `ids` order whatever the number of workers.
    private mutating func updateManifolds(_ ids: [Int32], _ cb: UnsafeMutableBufferPointer<Contact>,
                                          _ changes: inout [ContactChange]) {
        let stages = ParallelStages(workers, awakeBodies: awakeBodies.count)
        let minPerBlock = 64
        let blocks = stages.blockCount(ids.count, minPerBlock: minPerBlock)
        var lists: [[ContactChange]] = [], counts: [SIMD2<Int>] = []
        swap(&lists, &blockChanges)
        defer { swap(&lists, &blockChanges) }
        while lists.count < blocks { lists.append([]) }
        counts.append(contentsOf: repeatElement(.zero, count: blocks))
        if blocks == 1 { swap(&lists[0], &changes) }
        let segmentArray = segments, broadPhaseTrees = broadPhase
        // Local copies share storage (nothing mutates these arrays here) and keep `self` free for mutation.
        let wvArray = worldVertices, wnArray = worldNormals, svArray = segmentVertices, snArray = segmentNormals
        // Read through a pointer: field reads, never a whole `Body` copied (this runs for every awake contact).
        let bodyArray = bodies, motionArray = stepMotion
        motionArray.withUnsafeBufferPointer { mb in
        bodyArray.withUnsafeBufferPointer { bb in
        wvArray.withUnsafeBufferPointer { wvb in
            wnArray.withUnsafeBufferPointer { wnb in
                svArray.withUnsafeBufferPointer { svb in
                    snArray.withUnsafeBufferPointer { snb in
                        let wv = wvb.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        let wn = wnb.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        ids.withUnsafeBufferPointer { idb in
                        lists.withUnsafeMutableBufferPointer { lb in
                        counts.withUnsafeMutableBufferPointer { nb in
                        stages.run(ids.count, minPerBlock: minPerBlock) { block, range in
                        var updates = 0, recycled = 0
                        for id in idb[range] {
                            let k = Int(id)
                            guard broadPhaseTrees.fatBox(cb[k].proxyA).overlaps(broadPhaseTrees.fatBox(cb[k].proxyB))
                            else {
                                lb[block].append(ContactChange(id: id, kind: .destroy))
                                continue
                            }
                            let p = Int(cb[k].bodyA), q = Int(cb[k].bodyB)
                            @inline(__always) func views() -> (ShapeView, ShapeView) {
                                if q >= 0 { return (Self.shapeView(body: p, bb, wv, wn), Self.shapeView(body: q, bb, wv, wn)) }
                                let seg = segmentArray[Int(cb[k].segment)]
                                return (Self.shapeView(body: p, bb, wv, wn),
                                        ShapeView(isCircle: false, radius: 0, center: seg.a,
                                                  vertices: svb.baseAddress! + seg.vertexStart,
                                                  normals: snb.baseAddress! + seg.vertexStart, count: 2))
                            }
                            let poseA = RecyclePose(bb[p])
                            let poseB = q >= 0 ? RecyclePose(bb[q]) : .fixed
                            var change: ContactChange
                            if cb[k].recycle.tryRecycle(&cb[k], poseA, poseB) {
                                recycled += 1
                                change = Self.touchingChange(&cb[k], bb)
                            } else {
                                updates += 1
                                let centerB: Vec2
                                if q >= 0 {
                                    centerB = bb[q].centerOfMass
                                    cb[k].friction = (bb[p].friction * bb[q].friction).squareRoot()
                                    cb[k].restitution = max(bb[p].elasticity, bb[q].elasticity)
                                } else {
                                    centerB = .zero
                                    cb[k].friction = (bb[p].friction * Tuning.boundaryFriction).squareRoot()
                                    cb[k].restitution = max(bb[p].elasticity, Tuning.boundaryElasticity)
                                }
                                let (viewA, viewB) = views()
                                // The id-derived direction (its sine and cosine) only for centres that nearly coincide.
                                var apart: Vec2? = nil
                                if q >= 0, (viewB.center - viewA.center).lengthSquared
                                    < Tuning.coincidentDistance * Tuning.coincidentDistance {
                                    apart = coincidentNormal(bb[p].id, bb[q].id)
                                }
                                let m = collide(viewA, viewB, margin: Tuning.speculativeDistance, apart: apart)
                                change = updateManifold(&cb[k], m, centerA: bb[p].centerOfMass, centerB: centerB)
                                cb[k].recycle = RecycleCache(poseA, poseB)
                            }
                            cb[k].passes = false
                            let gap = cb[k].minSeparation
                            // Most contacts touch (gap <= 0) or have no points (infinite gap): nothing to test.
                            if gap > 0 && gap < .infinity, let motion = Self.closingMotion(gap: gap, p, q, bb, mb) {
                                let (viewA, viewB) = views()
                                cb[k].passes = Self.passesBy(viewA, viewB, motion.displacement, motion.slack)
                            }
                            if cb[k].passes {
                                // Nothing acts between them this step, so nothing is carried into the next.
                                cb[k].p0.normalImpulse = 0; cb[k].p0.tangentImpulse = 0
                                cb[k].p1.normalImpulse = 0; cb[k].p1.tangentImpulse = 0
                            }
                            if gap < -Tuning.pushOutOverlap {
                                change.kind.insert(.pushesOut)
                                if gap < -Tuning.restlessOverlap { change.kind.insert(.restless) }
                            }
                            if change.kind != .none {
                                change.id = id
                                lb[block].append(change)
                            }
                        }
                        nb[block] = SIMD2(updates, recycled)
                        }
                        }
                        }
                        }
                    }
                }
            }
        }
        }
        }
        if blocks == 1 {
            swap(&lists[0], &changes)
        } else {
            for b in 0..<blocks {
                changes.append(contentsOf: lists[b])
                lists[b].removeAll(keepingCapacity: true)
            }
        }
        let total = counts.reduce(.zero, &+)
        narrowPhaseUpdates = total.x
        recycledManifolds = total.y
    }

    /// The touching state of a recycled manifold from its moved separations (same hysteresis), and the event.
    @inline(__always) private static func touchingChange(_ c: inout Contact, _ bb: UnsafeBufferPointer<Body>)
        -> ContactChange {
        let wasTouching = c.touching
        let sep = c.minSeparation
        c.touching = sep <= Tuning.touchBegin || (wasTouching && sep <= Tuning.touchEnd)
        var change = ContactChange(id: -1, kind: .none)
        if c.touching && !wasTouching {
            change.kind.insert(.began)
            change.point = eventPoint(c, bb)
        } else if !c.touching && wasTouching {
            change.kind.insert(.ended)
        }
        return change
    }

    /// Where a recycled manifold's surfaces meet now: halfway between each point carried by body A and by
    /// body B (the bodies turned by less than the recycling test allows, so the anchors are not turned), the
    /// mean of the points.
    @inline(__always) private static func eventPoint(_ c: Contact, _ bb: UnsafeBufferPointer<Body>) -> Vec2 {
        let cA = bb[Int(c.bodyA)].centerOfMass
        let cB = c.bodyB >= 0 ? bb[Int(c.bodyB)].centerOfMass : .zero
        let q0 = (cA + c.p0.anchorA + cB + c.p0.anchorB) * 0.5
        guard c.pointCount > 1 else { return q0 }
        return (q0 + (cA + c.p1.anchorA + cB + c.p1.anchorB) * 0.5) * 0.5
    }

    /// Gives contact `c` the manifold `m`, warm-started from its previous points, and returns what changed.
    @inline(__always) private func updateManifold(_ c: inout Contact, _ m: Manifold, centerA cA: Vec2,
                                                  centerB: Vec2) -> ContactChange {
        let oldCount = c.pointCount, old0 = c.p0, old1 = c.p1, wasTouching = c.touching
        c.pointCount = Int32(m.count)
        if m.count > 0 {
            c.normal = m.normal
            c.p0 = ContactPoint(anchorA: m.p0.point - cA, anchorB: m.p0.point - centerB,
                                baseSeparation: m.p0.separation, separation: m.p0.separation, id: m.p0.id)
            warmStart(&c.p0, oldCount, old0, old1)
        }
        if m.count > 1 {
            c.p1 = ContactPoint(anchorA: m.p1.point - cA, anchorB: m.p1.point - centerB,
                                baseSeparation: m.p1.separation, separation: m.p1.separation, id: m.p1.id)
            warmStart(&c.p1, oldCount, old0, old1)
        }
        let sep = c.minSeparation
        c.touching = sep <= Tuning.touchBegin || (wasTouching && sep <= Tuning.touchEnd)
        var change = ContactChange(id: -1, kind: .none)
        if c.touching && !wasTouching {
            change.kind.insert(.began)
            change.point = m.count > 1 ? (m.p0.point + m.p1.point) * 0.5 : m.p0.point
        } else if !c.touching && wasTouching {
            change.kind.insert(.ended)
        }
        if oldCount == 0 && c.pointCount > 0 {
            change.kind.insert(.gainedPoints)
        } else if oldCount > 0 && c.pointCount == 0 {
            change.kind.insert(.lostPoints)
        }
        return change
    }

    private mutating func flagPushedOut(_ i: Int) {
        guard bodies[i].awake && !bodies[i].isStatic && !pushedOut[i] else { return }
        pushedOut[i] = true
        pushedOutCount += 1
    }

    /// Pass two: applies one recorded change, in awake-contact order.
    private mutating func apply(_ change: ContactChange) {
        if change.kind.contains(.destroy) {
            destroyContact(change.id)
            return
        }
        let c = contacts[Int(change.id)]
        if change.kind.contains(.restless) {
            bodies[Int(c.bodyA)].keepAwake = true
            if c.bodyB >= 0 && !bodies[Int(c.bodyB)].isStatic { bodies[Int(c.bodyB)].keepAwake = true }
        }
        if change.kind.contains(.pushesOut) {
            // The bodies a deep overlap pushes apart this step (`finalizeBodies` caps their islands).
            flagPushedOut(Int(c.bodyA))
            if c.bodyB >= 0 { flagPushedOut(Int(c.bodyB)) }
        }
        if change.kind.contains(.began) {
            emit(.began(bodies[Int(c.bodyA)].id, partner(of: c), point: change.point))
        } else if change.kind.contains(.ended) {
            emit(endedEvent(c))
        }
        if change.kind.contains(.gainedPoints) {
            contactBeganTouching(change.id)
        } else if change.kind.contains(.lostPoints) {
            contactStoppedTouching(change.id)
        }
    }

    /// Carries impulses over from the previous step: by feature id, or else (when the reference face flipped
    /// between the two shapes) from the old point at the same place.
    @inline(__always) private func warmStart(_ p: inout ContactPoint, _ oldCount: Int32, _ o0: ContactPoint,
                                             _ o1: ContactPoint) {
        var source: ContactPoint?
        if oldCount > 0 && o0.id == p.id {
            source = o0
        } else if oldCount > 1 && o1.id == p.id {
            source = o1
        } else {
            let tolerance = 2 * Tuning.linearSlop
            var best = tolerance * tolerance
            for k in 0..<Int(oldCount) {
                let q = k == 0 ? o0 : o1
                let d = (q.anchorA - p.anchorA).lengthSquared
                if d < best { best = d; source = q }
            }
        }
        if let q = source {
            p.normalImpulse = q.normalImpulse
            p.tangentImpulse = q.tangentImpulse
        }
    }
}

/// A contact's state change found by the narrow phase's first pass, applied by the second.
struct ContactChange {
    struct Kind: OptionSet {
        let rawValue: UInt8
        static let none: Kind = []
        static let destroy = Kind(rawValue: 1)
        static let began = Kind(rawValue: 2)
        static let ended = Kind(rawValue: 4)
        static let gainedPoints = Kind(rawValue: 8)
        static let lostPoints = Kind(rawValue: 16)
        /// The contact overlaps by more than `Tuning.restlessOverlap`: its bodies may not sleep.
        static let restless = Kind(rawValue: 32)
        /// The contact overlaps by more than `Tuning.pushOutOverlap`: its island's speeds are capped this step.
        static let pushesOut = Kind(rawValue: 64)
    }
    var id: Int32
    var kind: Kind
    /// Where a began event happened.
    var point = Vec2.zero
}
