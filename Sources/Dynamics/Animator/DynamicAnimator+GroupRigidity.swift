/// Item groups move as exactly one rigid composite (docs/UIKIT.md, item groups).
///
/// The welds that join a group are solved like every joint, softly and iteratively, so a hard impact on one
/// member would bend the composite by a few points for a moment. After every step each awake group is
/// therefore projected onto the single rigid motion that keeps its mass, linear momentum and angular momentum:
/// the members' centers of mass go back to their places in the group's frame, their angles to the group's
/// angle plus their own offset, and their velocities to the composite's V + ω × r. That is what one compound
/// body of the same shapes would do; each member keeps its id and reports its own pose.
///
/// Guarantees: relative poses inside a group never change (up to rounding), momentum is conserved by the
/// projection, no libm call is made (angles are averaged, not taken with atan2) and nothing is allocated.
struct GroupFrame {
    /// Each member's center of mass relative to the group's, in the group's frame (angle 0 = when grouped).
    var offsets: [Vec2]
    /// Each member's angle minus the group's angle.
    var angles: [Double]
}

extension DynamicAnimator {
    /// The group frame of `items` in their current poses (the group's angle is 0 then).
    func groupFrame(of items: [ItemID]) -> GroupFrame {
        var mass = 0.0, weighted = Vec2.zero
        for item in items {
            guard let i = indexOf[item] else { continue }
            let b = world.bodies[i]
            let m = b.invMass > 0 ? 1 / b.invMass : 0
            mass += m
            weighted = weighted + b.centerOfMass * m
        }
        let origin = mass > 0 ? weighted * (1 / mass) : .zero
        var frame = GroupFrame(offsets: [], angles: [])
        for item in items {
            guard let i = indexOf[item] else { continue }
            frame.offsets.append(world.bodies[i].centerOfMass - origin)
            frame.angles.append(world.bodies[i].angle)
        }
        return frame
    }

    /// Projects every awake group onto one rigid motion (after `world.step()`). The groups are found through
    /// the awake bodies' group tags, so sleeping groups cost nothing: a group's welds keep its movable members
    /// in one island, which sleeps whole. A group with an anchored member is held in the anchored member's frame.
    /// Groups have disjoint members, so the order they are projected in changes nothing.
    func keepGroupsRigid() {
        guard !groups.isEmpty else { return }
        if groupLookupDirty {
            groupLookupDirty = false
            groupLookup.removeAll(keepingCapacity: true)
            for (k, g) in groups.enumerated() { groupLookup[Int32(truncatingIfNeeded: g.id)] = k }
            groupProjected = Array(repeating: groupPass, count: groups.count)
        }
        groupPass &+= 1
        for k in 0..<world.awakeBodies.count {
            let tag = world.bodies[Int(world.awakeBodies[k])].group
            guard tag != 0, let g = groupLookup[tag], groupProjected[g] != groupPass else { continue }
            groupProjected[g] = groupPass
            if groups[g].frame.offsets.count == groups[g].items.count { projectGroup(groups[g]) }
        }
    }

    private func projectGroup(_ g: GroupEntry) {
        var anyAwake = false, anyStatic = false, locked = false
        var mass = 0.0, momentum = Vec2.zero, weighted = Vec2.zero
        var angleSum = 0.0, angleWeight = 0.0
        for (k, item) in g.items.enumerated() {
            guard let i = indexOf[item] else { return }
            let b = world.bodies[i]
            anyAwake = anyAwake || b.awake
            anyStatic = anyStatic || b.isStatic
            locked = locked || b.fixedRotation
            let m = b.invMass > 0 ? 1 / b.invMass : 0
            let inertia = b.invInertia > 0 ? 1 / b.invInertia : 0
            mass += m
            momentum = momentum + b.velocity * m
            weighted = weighted + b.centerOfMass * m
            // The group's angle as this member sees it, weighted by how much the member resists turning.
            let w = inertia + m * g.frame.offsets[k].lengthSquared + 1e-12
            angleSum += (b.angle - g.frame.angles[k]) * w
            angleWeight += w
        }
        // A sleeping group is already rigid.
        guard anyAwake else { return }
        // An anchored member holds the whole composite: the welds alone are soft and let the others sag under
        // gravity (0.02 pt a second), so they are put back at their places in the frame the anchored member
        // fixes, at rest.
        if anyStatic {
            holdGroup(g)
            return
        }
        guard mass > 0 else { return }
        let center = weighted * (1 / mass)
        let velocity = momentum * (1 / mass)
        var angle = angleSum / angleWeight
        if locked, let i = indexOf[g.items[0]] { angle = world.bodies[i].angle - g.frame.angles[0] }
        let rot = Rot(angle: angle)
        // Angular momentum about the composite's center of mass, and the composite's inertia there.
        var spin = 0.0, inertiaSum = 0.0
        for (k, item) in g.items.enumerated() {
            let b = world.bodies[indexOf[item]!]
            let m = b.invMass > 0 ? 1 / b.invMass : 0
            let inertia = b.invInertia > 0 ? 1 / b.invInertia : 0
            let r = rot.rotate(g.frame.offsets[k])
            spin += inertia * b.angularVelocity + m * r.cross(b.velocity - velocity)
            inertiaSum += inertia + m * r.lengthSquared
        }
        let omega = locked || inertiaSum <= 0 ? 0 : spin / inertiaSum
        placeMembers(g, center: center, rot: rot, angle: angle, velocity: velocity, omega: omega)
    }

    /// A group with an anchored member: every movable member at its place relative to the first anchored one,
    /// not moving.
    private func holdGroup(_ g: GroupEntry) {
        guard let ks = g.items.firstIndex(where: { indexOf[$0].map { world.bodies[$0].isStatic } ?? false }),
              let s = indexOf[g.items[ks]] else { return }
        let angle = world.bodies[s].angle - g.frame.angles[ks]
        let rot = Rot(angle: angle)
        let center = world.bodies[s].centerOfMass - rot.rotate(g.frame.offsets[ks])
        placeMembers(g, center: center, rot: rot, angle: angle, velocity: .zero, omega: 0)
    }

    /// Puts every movable member of `g` at its place in the group's frame (the group's center of mass at
    /// `center`, turned by `angle`), moving with the composite: V + ω × r, turning at ω.
    private func placeMembers(_ g: GroupEntry, center: Vec2, rot: Rot, angle: Double, velocity: Vec2, omega: Double) {
        for (k, item) in g.items.enumerated() {
            guard let i = indexOf[item], !world.bodies[i].isStatic else { continue }
            var b = world.bodies[i]
            let r = rot.rotate(g.frame.offsets[k])
            b.angle = angle + g.frame.angles[k]
            b.rot = Rot(angle: b.angle)
            b.center = center + r - b.rot.rotate(b.localCentroid)
            b.velocity = velocity + crossSV(omega, r)
            b.angularVelocity = omega
            world.bodies[i] = b
        }
    }
}
