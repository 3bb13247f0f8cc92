/// One instantaneous push waiting for the next step: an impulse (mass·pt/s) on an item, applied at an offset
/// from its center given in the item's frame.
struct PendingImpulse {
    var item: ItemID
    var impulse: Vec2
    var offset: Vec2
}

extension DynamicAnimator {
    /// Queues the impulses of an instantaneous push that was just added or (re)activated, one per item, and
    /// wakes the items it moves. Each call adds to the queue, so nothing acknowledged is lost.
    func queueImpulses(of p: PushBehavior) {
        guard p.mode == .instantaneous, p.active else { return }
        let f = clampLength(p.pushDirection * PushBehavior.unitForce, 1e300)
        guard f != .zero else { return }
        for item in p.items {
            guard let i = indexOf[item], !world.bodies[i].isStatic else { continue }
            pendingImpulses.append(PendingImpulse(item: item, impulse: f, offset: p.targetOffsets[item] ?? .zero))
            touched(i)
        }
    }

    /// Applies and clears the queued impulses: each changes its item's velocity by impulse / mass (and its
    /// angular velocity by the torque at the offset), clamped to the engine's speed limits.
    func applyPendingImpulses() {
        guard !pendingImpulses.isEmpty else { return }
        let maxW = Tuning.maxRotationPerSubstep * stepHz * Double(Tuning.substeps)
        for q in pendingImpulses {
            guard let i = indexOf[q.item], !world.bodies[i].isStatic else { continue }
            let b = world.bodies[i]
            let r = b.lever(q.offset)
            world.bodies[i].velocity = clampLength(b.velocity + clampLength(q.impulse * b.invMass, Tuning.maxLinearSpeed),
                                                   Tuning.maxLinearSpeed)
            if b.invInertia > 0 {
                let dw = clampMagnitude(b.invInertia * r.cross(q.impulse), maxW)
                world.bodies[i].angularVelocity = clampMagnitude(b.angularVelocity + dw, maxW)
            }
            if !world.bodies[i].awake { world.wake(i) }
        }
        pendingImpulses.removeAll(keepingCapacity: true)
    }

    /// Wakes an item and everything in contact with it, and resumes stepping: for callers that change
    /// something the animator cannot see (nothing else is woken).
    public func wake(item id: ItemID) throws(DynamicsError) {
        wakeNeighbours(of: try index(id))
    }

    /// Whether a push moves anything: active with a non-zero force.
    func isEffective(_ p: PushBehavior) -> Bool { p.active && p.magnitude != 0 }
}
