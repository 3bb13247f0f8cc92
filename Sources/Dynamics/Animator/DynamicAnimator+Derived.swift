extension DynamicAnimator {
    /// Translates behaviors into engine inputs: per-body gravity and collision masks, boundary segments and
    /// joints. Runs only after a change, never in a steady-state step.
    func rebuildDerivedIfNeeded() {
        if segmentsDirty { rebuildSegments() }
        if derivedDirty { rebuildBodyInputs() }
        if jointsDirty {
            rebuildJoints()
            rebuildMouseJoints()
        }
        segmentsDirty = false
        derivedDirty = false
        jointsDirty = false
    }

    private var collisionBehaviors: [CollisionBehavior] {
        behaviors.compactMap { if case .collision(_, let c) = $0 { c } else { nil } }
    }

    /// The reference bounds of a collision behavior after its insets.
    private func boundsRect(_ c: CollisionBehavior) -> AABB {
        let i = c.boundaryInsets
        return AABB(minX: i.left, minY: i.top, maxX: width - i.right, maxY: height - i.bottom)
    }

    private func rebuildSegments() {
        var specs: [(slot: Int, name: String, a: Vec2, b: Vec2)] = []
        for (k, c) in collisionBehaviors.enumerated() where c.mode.collidesBoundaries {
            let slot = k & 63
            if c.translatesReferenceBoundsIntoBoundary {
                let r = boundsRect(c)
                let corners = [Vec2(r.minX, r.minY), Vec2(r.maxX, r.minY), Vec2(r.maxX, r.maxY), Vec2(r.minX, r.maxY)]
                for e in 0..<4 where corners[e] != corners[(e + 1) % 4] {
                    specs.append((slot, CollisionBehavior.referenceBoundsID, corners[e], corners[(e + 1) % 4]))
                }
            }
            for b in c.boundaries {
                let p = b.points
                for e in 0..<(p.count - 1) where p[e] != p[e + 1] { specs.append((slot, b.id, p[e], p[e + 1])) }
                if b.closed && p.count > 2 && p[p.count - 1] != p[0] { specs.append((slot, b.id, p[p.count - 1], p[0])) }
            }
        }
        world.setSegments(specs)
    }

    private func rebuildBodyInputs() {
        let n = world.bodies.count
        for i in 0..<n {
            world.bodies[i].gravity = .zero
            world.bodies[i].itemMask = 0
            world.bodies[i].boundaryMask = 0
            world.bodies[i].boundsMask = 0
        }
        var rects: [AABB] = []
        for b in behaviors {
            switch b {
            case .gravity(_, let g):
                let a = clampLength(g.acceleration, Tuning.maxAcceleration)
                forEachSelected(g.items) { world.bodies[$0].gravity += a }
            case .collision(_, let c):
                let slot = rects.count & 63
                let bit: UInt64 = 1 << UInt64(slot)
                if rects.count < 64 { rects.append(boundsRect(c)) }
                forEachSelected(c.items) { i in
                    if c.mode.collidesItems { world.bodies[i].itemMask |= bit }
                    if c.mode.collidesBoundaries {
                        world.bodies[i].boundaryMask |= bit
                        if c.translatesReferenceBoundsIntoBoundary { world.bodies[i].boundsMask |= bit }
                    }
                }
            default:
                break
            }
        }
        // UIKit's snap overrides gravity on its item.
        for b in behaviors {
            if case .snap(_, let s) = b, let i = indexOf[s.item] { world.bodies[i].gravity = .zero }
        }
        world.boundsRects = rects
        // Masks may have changed: the next step re-checks the contacts and pairs of bodies whose filter did.
        world.filtersDirty = true
    }

    private func forEachSelected(_ s: ItemSelection, _ body: (Int) -> Void) {
        switch s {
        case .all:
            for i in 0..<world.bodies.count { body(i) }
        case .only(let ids):
            for id in ids { if let i = indexOf[id] { body(i) } }
        }
    }

    private func rebuildJoints() {
        let old = world.joints
        var joints: [Joint] = []
        for b in behaviors {
            var j: Joint
            switch b {
            case .attachment(let id, let a):
                guard let ia = indexOf[a.item] else { continue }
                let ib = a.otherItem.flatMap { indexOf[$0] } ?? -1
                let kind: JointKind = switch a.kind {
                case .distance: .distance
                case .limit: .rope
                case .pin: .point
                }
                j = Joint(behaviorID: id, kind: kind, bodyA: Int32(ia), bodyB: Int32(ib), localA: a.offset,
                          localB: ib >= 0 ? a.otherOffset : (a.anchor ?? .zero), length: a.length ?? 0,
                          hertz: kind == .rope ? 0 : a.frequency, zeta: a.damping)
            case .snap(let id, let s):
                guard let ia = indexOf[s.item] else { continue }
                let zeta = Tuning.snapMinDampingRatio + (1 - Tuning.snapMinDampingRatio) * s.damping
                j = Joint(behaviorID: id, kind: .snap, bodyA: Int32(ia), bodyB: -1, localA: .zero, localB: s.point,
                          length: 0, hertz: Tuning.snapHertz, zeta: zeta)
            default:
                continue
            }
            if let o = old.first(where: { $0.behaviorID == j.behaviorID && $0.kind == j.kind }) {
                j.linearImpulse = o.linearImpulse
                j.axialImpulse = o.axialImpulse
                j.angularImpulse = o.angularImpulse
            }
            joints.append(j)
        }
        world.joints = joints
        world.jointsChanged()
    }

    /// Applies push behaviors for this step: continuous ones as a force (and torque at the target offset),
    /// instantaneous ones as the impulses queued when they were added or updated (every one of them, so N
    /// pushes within one step add up), after which they read back inactive. A push of zero force neither
    /// wakes its item nor keeps it awake.
    func applyPushes() {
        for k in 0..<behaviors.count {
            guard case .push(let id, var p) = behaviors[k], p.active else { continue }
            if p.mode == .instantaneous {
                p.active = false
                behaviors[k] = .push(id, p)
                continue
            }
            let f = clampLength(p.pushDirection * PushBehavior.unitForce, 1e300)
            guard f != .zero else { continue }
            for item in p.items {
                guard let i = indexOf[item], !world.bodies[i].isStatic else { continue }
                let b = world.bodies[i]
                let r = b.lever(p.targetOffsets[item] ?? .zero)
                world.bodies[i].force = clampLength(b.force + f, 1e300)
                world.bodies[i].torque = clampMagnitude(b.torque + r.cross(f), 1e300)
                world.bodies[i].keepAwake = true
                if !world.bodies[i].awake { world.wake(i) }
            }
        }
        applyPendingImpulses()
    }
}
