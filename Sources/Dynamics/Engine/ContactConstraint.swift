/// The per-step solver form of one contact point: only what the velocity passes read and write (Box2D v3's
/// split between the persistent contact and its per-step constraint). 80 bytes.
struct ConstraintPoint {
    var anchorA = Vec2.zero
    var anchorB = Vec2.zero
    var adjustedSeparation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var maxNormalImpulse = 0.0
    var normalMass = 0.0
    var tangentMass = 0.0
}

/// The per-step constraint of one active contact, built by `prepareContacts` in contact order (so the solve
/// order, and with it every result bit, is the same as solving the contacts themselves) and written back by
/// `storeImpulses`. Body indices are solver slots: a boundary is already mapped to the static dummy slot.
/// 224 bytes (the persistent `Contact` was 320 before the split, 208 now), contiguous, holding only active contacts.
struct ContactConstraint {
    var bodyA: Int32 = 0
    var bodyB: Int32 = 0
    var contact: Int32 = 0
    var pointCount: UInt8 = 0
    var againstStatic = false
    var block = false
    var normal = Vec2.zero
    var friction = 0.0
    /// Two-point effective-mass matrix [k11 k12; k12 k22] for the block solver; `block` when well conditioned.
    var k11 = 0.0
    var k12 = 0.0
    var k22 = 0.0
    var p0 = ConstraintPoint()
    var p1 = ConstraintPoint()
}

/// What only the restitution passes read, kept apart so that it does not widen the hot constraint.
struct RestitutionInput {
    var restitution = 0.0
    var relativeVelocity0 = 0.0
    var relativeVelocity1 = 0.0
    var baseSeparation0 = 0.0
    var baseSeparation1 = 0.0
}

/// Writes the accumulated impulses of every constraint back into its persistent contact, where the next
/// step's manifold update finds them for warm starting.
func storeImpulses(_ constraints: UnsafeBufferPointer<ContactConstraint>,
                   _ contacts: UnsafeMutableBufferPointer<Contact>) {
    for k in 0..<constraints.count {
        let c = constraints[k]
        let i = Int(c.contact)
        contacts[i].p0.normalImpulse = c.p0.normalImpulse
        contacts[i].p0.tangentImpulse = c.p0.tangentImpulse
        if c.pointCount > 1 {
            contacts[i].p1.normalImpulse = c.p1.normalImpulse
            contacts[i].p1.tangentImpulse = c.p1.tangentImpulse
        }
    }
}
