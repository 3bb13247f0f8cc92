/// Speculative contacts that cannot close this step (docs/ENGINE.md, "Only touching bodies interact").
///
/// A contact's points and normal are fixed at the start of the step, and the solver measures its separation
/// along that fixed normal, moved on linearly by the bodies' motion. For two shapes sliding past each other
/// with a small gap (two balls falling side by side, one bouncing up past the other) the normal is tilted, and
/// the linear separation goes negative although the real gap never closes: the solver would push them apart
/// sideways. So before the solve, each contact that is still apart (a speculative one) is tested against the
/// step's predicted motion (velocities and the accelerations known before the step, turning covered by a
/// margin): if the two shapes provably stay apart, the contact `passes` and the solver skips it for this step.
/// The test is conservative: when in doubt the contact is solved, and a contact that is solved applies only
/// the impulse that closes its gap (Box2D v3's speculative bias).
extension PhysicsWorld {
    /// For a contact whose points are `gap` apart (infinite: none), between body `p` and body `q` (a segment
    /// when `q < 0`): nil when there is nothing to test (the bodies' motion cannot close the gap, so the solver
    /// applies nothing anyway); else the predicted displacement of `q`'s shape relative to `p`'s this step and
    /// the slack for turning and unknown accelerations.
    @inline(__always) static func closingMotion(gap: Double, _ p: Int, _ q: Int, _ bb: UnsafeBufferPointer<Body>,
                                                 _ mb: UnsafeBufferPointer<StepMotion>)
        -> (displacement: Vec2, slack: Double)? {
        guard gap > 0 && gap.isFinite else { return nil }
        // A sleeping or static body does not move (its noted motion may be stale).
        var motion = Vec2.zero, slack = 0.0
        if bb[p].awake && !bb[p].isStatic {
            motion = -mb[p].displacement
            slack = mb[p].turn
        }
        if q >= 0 && bb[q].awake && !bb[q].isStatic {
            motion = motion + mb[q].displacement
            slack += mb[q].turn
        }
        // Moving less than the gap, the linear separation stays positive and the solver applies nothing anyway;
        // moving less than a slop, any false push is below a slop (a resting pile is never tested).
        guard motion.length + slack > max(gap, Tuning.linearSlop) else { return nil }
        // What the prediction cannot know (accelerations from other contacts and joints this step).
        return (motion, slack + Tuning.linearSlop)
    }

    /// True when shapes `a` and `b`, with `b` moving by `motion` relative to `a` this step, provably stay more
    /// than `slack` apart.
    @inline(__always) static func passesBy(_ a: ShapeView, _ b: ShapeView, _ motion: Vec2, _ slack: Double) -> Bool {
        if a.isCircle && b.isCircle {
            // Closest approach of the two centres along the relative motion.
            let c0 = b.center - a.center
            let mm = motion.lengthSquared
            let t = mm > 0 ? min(max(-c0.dot(motion) / mm, 0), 1) : 0
            return (c0 + motion * t).length - a.radius - b.radius > slack
        }
        // Separating axes (the polygons' face normals): along each, the separation is linear in the step's
        // fraction t. The shapes can meet only at a t where every axis's separation is at most `slack`.
        var lo = 0.0, hi = 1.0
        if !a.isCircle && !narrow(a, b, motion, slack, &lo, &hi) { return true }
        if !b.isCircle && !narrow(b, a, -motion, slack, &lo, &hi) { return true }
        return lo > hi
    }

    /// Narrows `lo...hi` (fractions of the step) to where `other`, moving by `motion` relative to `poly`, can be
    /// within `slack` of `poly` along every face normal of `poly`. False when it never can.
    @inline(__always) private static func narrow(_ poly: ShapeView, _ other: ShapeView, _ motion: Vec2, _ slack: Double,
                                          _ lo: inout Double, _ hi: inout Double) -> Bool {
        for i in 0..<poly.count {
            let n = poly.normals[i], v = poly.vertices[i]
            var s: Double
            if other.isCircle {
                s = n.dot(other.center - v) - other.radius
            } else {
                s = .infinity
                for j in 0..<other.count { s = min(s, n.dot(other.vertices[j] - v)) }
            }
            // s - slack + rate × t <= 0
            let a = s - slack, rate = n.dot(motion)
            if rate == 0 {
                if a > 0 { return false }
            } else if rate > 0 {
                hi = min(hi, -a / rate)
            } else {
                lo = max(lo, -a / rate)
            }
            if lo > hi { return false }
        }
        return true
    }
}

/// One awake body's predicted motion this step, noted by `prepareProxies` for the passing test: its displacement
/// (its velocity and the accelerations known before the step: gravity and pushes) and how far a point of it may
/// move by turning.
struct StepMotion {
    var displacement = Vec2.zero
    var turn = 0.0
}
