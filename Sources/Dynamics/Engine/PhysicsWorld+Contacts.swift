extension PhysicsWorld {
    /// Grows the boxes of awake bodies by how far they can move this step, so that speculative contacts cover
    /// the whole step (no tunnelling), and moves their proxies: a proxy whose box left its fat box is reinserted
    /// and buffered for pair finding. Sleeping and static bodies cost nothing.
    mutating func prepareProxies() {
        let spec = Tuning.speculativeDistance
        proxiesPreparedLastStep = awakeBodies.count
        for slot in 0..<awakeBodies.count {
            let i = Int(awakeBodies[slot])
            let b = bodies[i]
            let accel = clampLength(b.gravity + b.force * b.invMass, Tuning.maxAcceleration)
            let speed = min(b.velocity.length + accel.length * dt, Tuning.maxLinearSpeed)
            var e = 0.5 * spec + speed * dt
            if !b.isCircle { e += min(abs(b.angularVelocity) * dt, 1) * b.boundingRadius }
            updateGeometry(i, expansion: e)
        }
    }

    private func shapeView(body i: Int, _ wv: UnsafePointer<Vec2>, _ wn: UnsafePointer<Vec2>) -> ShapeView {
        let b = bodies[i]
        return ShapeView(isCircle: b.isCircle, radius: b.radius, center: b.center, vertices: wv + b.vertexStart,
                         normals: wn + b.vertexStart, count: b.vertexCount)
    }

    /// Lists the contacts with at least one awake body into `awakeContacts`: each awake body's list in
    /// ascending body order, a contact between two awake bodies from the smaller one. O(awake contacts).
    mutating func buildAwakeContacts() {
        awakeContacts.removeAll(keepingCapacity: true)
        for slot in 0..<awakeBodies.count {
            let i = Int(awakeBodies[slot])
            let i32 = Int32(i)
            var c = contactHead[i]
            while c >= 0 {
                let k = Int(c)
                let isA = contacts[k].bodyA == i32
                let other = isA ? contacts[k].bodyB : contacts[k].bodyA
                if other < 0 || other > i32 || !bodies[Int(other)].isDynamicAwake { awakeContacts.append(c) }
                c = isA ? contactEdges[k].nextA : contactEdges[k].nextB
            }
        }
    }

    /// The contact phase of a step: pair events from the broad phase create contacts, then every contact with an
    /// awake body is updated: destroyed if its fat boxes no longer overlap, else given a fresh manifold
    /// warm-started from its previous one by feature id. Began/ended events come from the touching state, with
    /// hysteresis; the island hooks hear when a manifold gains its first point or loses its last. Contacts of
    /// sleeping bodies keep their manifold and impulses untouched.
    mutating func updateContacts() {
        createContactsForNewPairs()
        buildAwakeContacts()
        narrowPhaseUpdates = 0
        var ids: [Int32] = []
        swap(&ids, &awakeContacts)
        defer { swap(&ids, &awakeContacts) }
        // Local copies share storage (nothing mutates these arrays here) and keep `self` free for mutation.
        let wvArray = worldVertices, wnArray = worldNormals, svArray = segmentVertices, snArray = segmentNormals
        wvArray.withUnsafeBufferPointer { wvb in
            wnArray.withUnsafeBufferPointer { wnb in
                svArray.withUnsafeBufferPointer { svb in
                    snArray.withUnsafeBufferPointer { snb in
                        let wv = wvb.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        let wn = wnb.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        for id in ids {
                            let k = Int(id)
                            let c = contacts[k]
                            guard broadPhase.fatBox(c.proxyA).overlaps(broadPhase.fatBox(c.proxyB)) else {
                                destroyContact(id)
                                continue
                            }
                            narrowPhaseUpdates += 1
                            let p = Int(c.bodyA)
                            let viewA = shapeView(body: p, wv, wn)
                            let viewB: ShapeView
                            let margin: Double
                            var next = c
                            if c.bodyB >= 0 {
                                let q = Int(c.bodyB)
                                viewB = shapeView(body: q, wv, wn)
                                margin = expansion[p] + expansion[q]
                                next.friction = (bodies[p].friction * bodies[q].friction).squareRoot()
                                next.restitution = max(bodies[p].elasticity, bodies[q].elasticity)
                            } else {
                                let seg = segments[Int(c.segment)]
                                viewB = ShapeView(isCircle: false, radius: 0, center: seg.a,
                                                  vertices: svb.baseAddress! + seg.vertexStart,
                                                  normals: snb.baseAddress! + seg.vertexStart, count: 2)
                                margin = expansion[p] + 0.5 * Tuning.speculativeDistance
                                next.friction = (bodies[p].friction * Tuning.boundaryFriction).squareRoot()
                                next.restitution = max(bodies[p].elasticity, Tuning.boundaryElasticity)
                            }
                            let m = collide(viewA, viewB, margin: margin)
                            updateManifold(id, &next, m, centerB: c.bodyB >= 0 ? bodies[Int(c.bodyB)].centerOfMass : .zero)
                        }
                    }
                }
            }
        }
    }

    /// Gives contact `id` (whose previous state is still in `contacts`) the manifold `m`, warm-started from
    /// the previous points, and reports touching changes.
    private mutating func updateManifold(_ id: Int32, _ c: inout Contact, _ m: Manifold, centerB: Vec2) {
        let o = contacts[Int(id)]
        let cA = bodies[Int(c.bodyA)].centerOfMass
        c.pointCount = Int32(m.count)
        if m.count > 0 {
            c.normal = m.normal
            c.p0 = ContactPoint(anchorA: m.p0.point - cA, anchorB: m.p0.point - centerB,
                                baseSeparation: m.p0.separation, id: m.p0.id)
            warmStart(&c.p0, from: o)
        }
        if m.count > 1 {
            c.p1 = ContactPoint(anchorA: m.p1.point - cA, anchorB: m.p1.point - centerB,
                                baseSeparation: m.p1.separation, id: m.p1.id)
            warmStart(&c.p1, from: o)
        }
        let wasTouching = o.touching
        let sep = c.minSeparation
        c.touching = sep <= Tuning.touchBegin || (wasTouching && sep <= Tuning.touchEnd)
        contacts[Int(id)] = c
        if c.touching && !wasTouching {
            let point = m.count > 1 ? (m.p0.point + m.p1.point) * 0.5 : m.p0.point
            emit(.began(bodies[Int(c.bodyA)].id, partner(of: c), point: point))
        } else if !c.touching && wasTouching {
            emit(endedEvent(c))
        }
        if o.pointCount == 0 && c.pointCount > 0 {
            contactBeganTouching(id)
        } else if o.pointCount > 0 && c.pointCount == 0 {
            contactStoppedTouching(id)
        }
    }

    /// Carries impulses over from the previous step: by feature id, or else (when the reference face flipped
    /// between the two shapes) from the old point at the same place.
    @inline(__always) private func warmStart(_ p: inout ContactPoint, from o: Contact) {
        var source: ContactPoint?
        if o.pointCount > 0 && o.p0.id == p.id {
            source = o.p0
        } else if o.pointCount > 1 && o.p1.id == p.id {
            source = o.p1
        } else {
            let tolerance = 2 * Tuning.linearSlop
            var best = tolerance * tolerance
            for k in 0..<Int(o.pointCount) {
                let q = k == 0 ? o.p0 : o.p1
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
