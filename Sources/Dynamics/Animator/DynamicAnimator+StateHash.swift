/// The state hash (docs/PROTOCOL.md, "hash"): every value the next steps depend on, walked in a fixed order.
///
/// Guarantees: two animators that step identically from here hash equal; any difference in an item's pose,
/// velocities, properties, shape, sleep state, a behavior or its parameters, a contact's manifold and
/// warm-start impulses, a joint's accumulated impulses, the clock or the id counters changes the hash (up to
/// 64-bit collisions). Allocation-free: it reads the arrays in place and never sorts or iterates a dictionary.
/// The solver's per-step scratch (rebuilt at the start of every step) is not part of the state and not hashed.
extension DynamicAnimator {
    public func stateHash() -> UInt64 {
        var h = StateHasher()
        h.mix(elapsedTime)
        h.mix(stepCount)
        h.mix(isRunning)
        h.mix(nextItemID)
        h.mix(nextBehaviorID)
        h.mix(world.sleepingEnabled)
        hashBodies(into: &h)
        hashContacts(into: &h)
        hashJoints(into: &h)
        hashBehaviors(into: &h)
        hashAnimatorEntries(into: &h)
        return h.value
    }

    // Each walk reads the engine's arrays through local constants: one retain per array, instead of an access
    // to the animator's `world` per element.
    private func hashBodies(into h: inout StateHasher) {
        let bodies = world.bodies, infos = world.infos
        h.mix(bodies.count)
        for i in bodies.indices {
            let b = bodies[i]
            h.mix(b.id)
            h.mix(b.center); h.mix(b.angle); h.mix(b.rot.c); h.mix(b.rot.s)
            h.mix(b.velocity); h.mix(b.angularVelocity)
            h.mix(b.invMass); h.mix(b.invInertia)
            h.mix(b.isStatic); h.mix(b.awake); h.mix(b.sleepTime); h.mix(b.fixedRotation); h.mix(b.keepAwake)
            h.mix(b.isCircle); h.mix(b.radius)
            h.mix(b.elasticity); h.mix(b.friction); h.mix(b.linearDamping); h.mix(b.angularDamping)
            h.mix(b.localCentroid)
            h.mix(b.gravity); h.mix(b.force); h.mix(b.torque)
            h.mix(b.itemMask); h.mix(b.boundaryMask); h.mix(b.boundsMask); h.mix(b.group)
            let info = infos[i]
            hashShape(info.shape, into: &h)
            h.mix(info.width); h.mix(info.height); h.mix(info.mass); h.mix(info.inertia)
            StateHasher.mixProperties(info.properties, into: &h)
        }
        h.mix(world.splitSleepTime)
    }

    private func hashShape(_ shape: ItemShape, into h: inout StateHasher) {
        switch shape {
        case .rect: h.mix(UInt64(1))
        case .ellipse: h.mix(UInt64(2))
        case .polygon(let points):
            h.mix(UInt64(3))
            h.mix(points.count)
            for p in points { h.mix(p) }
        }
    }

    /// Every contact slot (a free slot hashes as such: slot ids decide where new contacts go) and the order in
    /// which the awake contacts are solved.
    private func hashContacts(into h: inout StateHasher) {
        let contacts = world.contacts, awake = world.awakeContacts
        h.mix(contacts.count)
        for k in contacts.indices {
            let c = contacts[k]
            h.mix(c.bodyA)
            guard c.bodyA >= 0 else { continue }
            h.mix(c.bodyB); h.mix(c.segment)
            h.mix(c.normal); h.mix(c.pointCount)
            hashPoint(c.p0, into: &h)
            hashPoint(c.p1, into: &h)
            h.mix(c.friction); h.mix(c.restitution); h.mix(c.touching)
            h.mix(c.recycle.rotA.c); h.mix(c.recycle.rotA.s); h.mix(c.recycle.rotB.c); h.mix(c.recycle.rotB.s)
            h.mix(c.recycle.relativeCenter)
        }
        h.mix(awake.count)
        for id in awake { h.mix(id) }
    }

    private func hashPoint(_ p: ContactPoint, into h: inout StateHasher) {
        h.mix(p.anchorA); h.mix(p.anchorB); h.mix(p.baseSeparation); h.mix(p.separation)
        h.mix(p.normalImpulse); h.mix(p.tangentImpulse); h.mix(p.id)
    }

    private func hashJoints(into h: inout StateHasher) {
        let joints = world.joints, mouseJoints = world.mouseJoints, constraintJoints = world.constraintJoints
        h.mix(joints.count)
        for j in joints {
            h.mix(j.behaviorID); h.mixTag(j.kind); h.mix(j.bodyA); h.mix(j.bodyB)
            h.mix(j.localA); h.mix(j.localB); h.mix(j.length); h.mix(j.hertz); h.mix(j.zeta)
            h.mix(j.linearImpulse); h.mix(j.axialImpulse); h.mix(j.angularImpulse); h.mix(j.baseAngle)
        }
        h.mix(mouseJoints.count)
        for j in mouseJoints {
            h.mix(j.behaviorID); h.mix(j.body); h.mix(j.localAnchor); h.mix(j.target); h.mix(j.lastTarget)
            h.mix(j.linearImpulse)
        }
        h.mix(constraintJoints.count)
        for j in constraintJoints {
            h.mix(j.behaviorID); h.mix(j.bodyA); h.mix(j.bodyB); h.mix(j.localA); h.mix(j.localB); h.mix(j.axisA)
            h.mix(j.referenceAngle); h.mix(j.point); h.mix(j.slide); h.mix(j.lockAngle)
            h.mix(j.hasAngleLimits); h.mix(j.angleLower); h.mix(j.angleUpper)
            h.mix(j.hasTranslationLimits); h.mix(j.translationLower); h.mix(j.translationUpper)
            h.mix(j.maxFrictionTorque)
            h.mix(j.linearImpulse); h.mix(j.angleImpulse); h.mix(j.lowerAngleImpulse); h.mix(j.upperAngleImpulse)
            h.mix(j.frictionImpulse); h.mix(j.perpImpulse); h.mix(j.lowerImpulse); h.mix(j.upperImpulse)
        }
    }

    private func hashBehaviors(into h: inout StateHasher) {
        h.mix(behaviors.count)
        for stored in behaviors {
            h.mix(stored.id)
            switch stored {
            case .gravity(_, let g):
                h.mix(UInt64(1)); h.mix(g.items); h.mix(g.direction)
            case .collision(_, let c):
                h.mix(UInt64(2)); h.mix(c.items); h.mixTag(c.mode); h.mix(c.translatesReferenceBoundsIntoBoundary)
                h.mix(c.boundaryInsets.top); h.mix(c.boundaryInsets.left)
                h.mix(c.boundaryInsets.bottom); h.mix(c.boundaryInsets.right)
                h.mix(c.boundaries.count)
                for b in c.boundaries {
                    h.mix(b.id); h.mix(b.closed); h.mix(b.points.count)
                    for p in b.points { h.mix(p) }
                }
            case .push(_, let p):
                h.mix(UInt64(3)); h.mix(p.items); h.mixTag(p.mode); h.mix(p.active); h.mix(p.angle); h.mix(p.magnitude)
                // The offsets by the push's own item order (a dictionary's order is not stable).
                h.mix(p.targetOffsets.count)
                for item in p.items { h.mix(p.targetOffsets[item]) }
            case .attachment(_, let a):
                h.mix(UInt64(4)); h.mix(a.item); h.mix(a.offset); h.mix(a.anchor); h.mix(a.otherItem)
                h.mix(a.otherOffset); h.mix(a.length); h.mix(a.frequency); h.mix(a.damping); h.mixTag(a.kind)
            case .snap(_, let s):
                h.mix(UInt64(5)); h.mix(s.item); h.mix(s.point); h.mix(s.damping)
            case .item(_, let d):
                h.mix(UInt64(6)); h.mix(d.items); StateHasher.mixProperties(d.properties, into: &h)
            case .drag(_, let d):
                h.mix(UInt64(7)); h.mix(d.item); h.mix(d.offset); h.mix(d.target)
            }
        }
    }

    /// Fields, joint attachments, groups and the instantaneous pushes waiting for the next step.
    private func hashAnimatorEntries(into h: inout StateHasher) {
        h.mix(fields.count)
        for (id, f) in fields {
            h.mix(id); h.mixTag(f.kind); h.mix(f.position); h.mix(f.strength); h.mix(f.falloff); h.mix(f.minimumRadius)
            hashRegion(f.region, into: &h)
            h.mix(f.direction); h.mix(f.smoothness); h.mix(f.animationSpeed); h.mix(f.items); h.mix(f.seed)
        }
        h.mix(jointAttachments.count)
        for entry in jointAttachments {
            h.mix(entry.id); h.mix(entry.localA); h.mix(entry.localB); h.mix(entry.axisA); h.mix(entry.referenceAngle)
            switch entry.attachment {
            case .fixed(let b):
                h.mix(UInt64(1)); h.mix(b.item); h.mix(b.otherItem); h.mix(b.anchor)
            case .sliding(let b):
                h.mix(UInt64(2)); h.mix(b.item); h.mix(b.otherItem); h.mix(b.anchor); h.mix(b.axis)
                h.mix(b.range?.lowerBound); h.mix(b.range?.upperBound)
            case .pin(let b):
                h.mix(UInt64(3)); h.mix(b.item); h.mix(b.otherItem); h.mix(b.point); h.mix(b.frictionTorque)
                h.mix(b.range?.lowerBound); h.mix(b.range?.upperBound)
            }
        }
        h.mix(groups.count)
        for g in groups {
            h.mix(g.id); h.mix(g.items); h.mix(g.welds)
            h.mix(g.frame.offsets.count)
            for o in g.frame.offsets { h.mix(o) }
            for a in g.frame.angles { h.mix(a) }
        }
        h.mix(pendingImpulses.count)
        for p in pendingImpulses { h.mix(p.item); h.mix(p.impulse); h.mix(p.offset) }
    }

    private func hashRegion(_ region: FieldRegion, into h: inout StateHasher) {
        switch region {
        case .infinite: h.mix(UInt64(1))
        case .circle(let r): h.mix(UInt64(2)); h.mix(r)
        case .rect(let w, let hh): h.mix(UInt64(3)); h.mix(w); h.mix(hh)
        case .inverse(let inner): h.mix(UInt64(4)); hashRegion(inner, into: &h)
        case .union(let a, let b): h.mix(UInt64(5)); hashRegion(a, into: &h); hashRegion(b, into: &h)
        case .intersection(let a, let b): h.mix(UInt64(6)); hashRegion(a, into: &h); hashRegion(b, into: &h)
        }
    }
}

extension StateHasher {
    mutating func mix(_ ids: [Int]) {
        mix(ids.count)
        for id in ids { mix(id) }
    }

    mutating func mix(_ selection: ItemSelection) {
        switch selection {
        case .all: mix(UInt64(0))
        case .only(let ids): mix(UInt64(1)); mix(ids)
        }
    }

    /// A case of an enum without payloads, by its one-byte tag.
    mutating func mixTag<T>(_ value: T) {
        precondition(MemoryLayout<T>.size <= 1, "mixTag is for enums without payloads")
        withUnsafeBytes(of: value) { mix(UInt64($0.isEmpty ? 0 : $0[0])) }
    }

    static func mixProperties(_ p: ItemProperties, into h: inout StateHasher) {
        h.mix(p.elasticity); h.mix(p.friction); h.mix(p.density); h.mix(p.resistance); h.mix(p.angularResistance)
        h.mix(p.allowsRotation); h.mix(p.anchored); h.mix(p.charge)
    }
}
