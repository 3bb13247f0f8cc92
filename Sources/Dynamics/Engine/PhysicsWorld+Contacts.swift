extension PhysicsWorld {
    /// Grows the proxy boxes of awake bodies by how far they can move this step, so that speculative contacts
    /// cover the whole step (no tunnelling), and marks them active for the broad phase.
    mutating func prepareProxies() {
        let spec = Tuning.speculativeDistance
        // Only the awake set: a body leaving it has its proxy made inactive then (Engine/AwakeSet.swift).
        proxiesPreparedLastStep = awakeBodies.count
        for slot in 0..<awakeBodies.count {
            let i = Int(awakeBodies[slot])
            let b = bodies[i]
            let accel = clampLength(b.gravity + b.force * b.invMass, Tuning.maxAcceleration)
            let speed = min(b.velocity.length + accel.length * dt, Tuning.maxLinearSpeed)
            var e = 0.5 * spec + speed * dt
            if !b.isCircle { e += min(abs(b.angularVelocity) * dt, 1) * b.boundingRadius }
            updateGeometry(i, expansion: e)
            proxyActive[i] = true
        }
        for s in 0..<segments.count { proxyActive[bodies.count + s] = false }
    }

    private func shapeView(body i: Int, _ wv: UnsafePointer<Vec2>, _ wn: UnsafePointer<Vec2>) -> ShapeView {
        let b = bodies[i]
        return ShapeView(isCircle: b.isCircle, radius: b.radius, center: b.center, vertices: wv + b.vertexStart,
                         normals: wn + b.vertexStart, count: b.vertexCount)
    }

    @inline(__always) private func collidable(_ p: Int, _ q: Int) -> Bool {
        let a = bodies[p]
        if q < bodies.count {
            let b = bodies[q]
            return !(a.isStatic && b.isStatic) && a.itemMask & b.itemMask != 0 && (a.group == 0 || a.group != b.group)
        }
        return !a.isStatic && a.boundaryMask & (1 << UInt64(segments[q - bodies.count].slot)) != 0
    }

    /// Rebuilds the contact list: contacts between bodies that cannot move are carried over unchanged; every
    /// overlapping pair with an awake body gets a fresh manifold, warm-started from the previous step by key
    /// and feature id. Began/ended events come from the touching state, with hysteresis.
    mutating func updateContacts() {
        swap(&contacts, &previousContacts)
        contacts.removeAll(keepingCapacity: true)
        table.reset(count: previousContacts.count)
        matched.removeAll(keepingCapacity: true)
        matched.append(contentsOf: repeatElement(false, count: previousContacts.count))
        for k in 0..<previousContacts.count {
            let c = previousContacts[k]
            table.insert(c.keyA, c.keyB, Int32(k))
            let aAwake = bodies[Int(c.bodyA)].isDynamicAwake
            let bAwake = c.bodyB >= 0 && bodies[Int(c.bodyB)].isDynamicAwake
            if !aAwake && !bAwake {
                contacts.append(c)
                matched[k] = true
            }
        }
        var found: [ProxyPair] = []
        swap(&found, &pairs)
        let boxArray = boxes, activeArray = proxyActive
        boxArray.withUnsafeBufferPointer { bx in
            activeArray.withUnsafeBufferPointer { act in broadPhase.findPairs(bx, active: act, into: &found) }
        }
        swap(&found, &pairs)
        let nBodies = bodies.count
        // Local copies share storage (nothing mutates these arrays here) and keep `self` free for mutation.
        let wvArray = worldVertices, wnArray = worldNormals, svArray = segmentVertices, snArray = segmentNormals
        wvArray.withUnsafeBufferPointer { wvb in
            wnArray.withUnsafeBufferPointer { wnb in
                svArray.withUnsafeBufferPointer { svb in
                    snArray.withUnsafeBufferPointer { snb in
                        let wv = wvb.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        let wn = wnb.baseAddress ?? UnsafePointer(bitPattern: 8)!
                        for pair in pairs {
                            let p = Int(pair.a), q = Int(pair.b)
                            guard collidable(p, q) else { continue }
                            let viewA = shapeView(body: p, wv, wn)
                            let viewB: ShapeView
                            var contact: Contact
                            if q < nBodies {
                                viewB = shapeView(body: q, wv, wn)
                                contact = Contact(bodyA: Int32(p), bodyB: Int32(q), segment: -1,
                                                  keyA: bodies[p].id, keyB: bodies[q].id)
                                contact.friction = (bodies[p].friction * bodies[q].friction).squareRoot()
                                contact.restitution = max(bodies[p].elasticity, bodies[q].elasticity)
                            } else {
                                let s = q - nBodies
                                let seg = segments[s]
                                viewB = ShapeView(isCircle: false, radius: 0, center: seg.a,
                                                  vertices: svb.baseAddress! + seg.vertexStart,
                                                  normals: snb.baseAddress! + seg.vertexStart, count: 2)
                                contact = Contact(bodyA: Int32(p), bodyB: -1, segment: Int32(s),
                                                  keyA: bodies[p].id, keyB: seg.key)
                                contact.friction = (bodies[p].friction * Tuning.boundaryFriction).squareRoot()
                                contact.restitution = max(bodies[p].elasticity, Tuning.boundaryElasticity)
                            }
                            let m = collide(viewA, viewB, margin: expansion[p] + expansion[q])
                            guard m.count > 0 else { continue }
                            let old = table.find(contact.keyA, contact.keyB)
                            addContact(&contact, m, old: old, centerB: q < nBodies ? bodies[q].centerOfMass : .zero)
                        }
                    }
                }
            }
        }
        for k in 0..<previousContacts.count where !matched[k] {
            let c = previousContacts[k]
            if c.touching { emit(endedEvent(c)) }
            if c.pointCount > 0 { lostLink(Int(c.bodyA), Int(c.bodyB)) }
        }
    }

    private mutating func addContact(_ c: inout Contact, _ m: Manifold, old: Int32, centerB: Vec2) {
        let cA = bodies[Int(c.bodyA)].centerOfMass
        c.normal = m.normal
        c.pointCount = Int32(m.count)
        c.p0 = ContactPoint(anchorA: m.p0.point - cA, anchorB: m.p0.point - centerB,
                            baseSeparation: m.p0.separation, id: m.p0.id)
        if m.count > 1 {
            c.p1 = ContactPoint(anchorA: m.p1.point - cA, anchorB: m.p1.point - centerB,
                                baseSeparation: m.p1.separation, id: m.p1.id)
        }
        var wasTouching = false
        if old >= 0 {
            let o = previousContacts[Int(old)]
            matched[Int(old)] = true
            wasTouching = o.touching
            warmStart(&c.p0, from: o)
            if m.count > 1 { warmStart(&c.p1, from: o) }
        }
        let sep = c.minSeparation
        c.touching = sep <= Tuning.touchBegin || (wasTouching && sep <= Tuning.touchEnd)
        if c.touching && !wasTouching {
            let point = m.count > 1 ? (m.p0.point + m.p1.point) * 0.5 : m.p0.point
            emit(.began(bodies[Int(c.bodyA)].id, partner(of: c), point: point))
        } else if !c.touching && wasTouching {
            emit(endedEvent(c))
        }
        contacts.append(c)
        // Island links (PhysicsWorld+Islands.swift): every contact here has points; it began touching if it is
        // new or had none.
        if old < 0 || previousContacts[Int(old)].pointCount == 0 { contactBeganTouching(Int32(contacts.count - 1)) }
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
