/// Restitution never adds energy (docs/ENGINE.md, "Restitution"; SPEC Part H, "Energy is bounded").
///
/// The rigid restitution passes aim each bouncing contact at elasticity × its approach speed, measured before the
/// step, all at once. When one of the bodies is stopped by something else in the same step (a ball pressed
/// against a wall by a box that hits it), the whole approach speed, the stopped body's part included, is handed
/// back to the other one, and the pair leaves with more energy than it brought (up to a quarter more in random
/// worlds). So after the passes, in each island the bodies the passes changed may not leave with more kinetic
/// energy than they had before the step plus what the step's known accelerations gave them: where they would,
/// their velocities are taken back from the bounce toward the velocities before the passes, by the one fraction
/// of the bounce that leaves the energy exactly at that bound.
extension PhysicsWorld {
    /// `s`: the solver states after the passes (slots `0 ..< count`, in `awakeBodies` order); `preBounce` holds
    /// the same velocities before them.
    mutating func limitBounceEnergy(_ s: UnsafeMutablePointer<SolverBody>, count: Int,
                                    bodies: UnsafeBufferPointer<Body>, motion: UnsafeBufferPointer<BodyMotion>,
                                    mass: UnsafeBufferPointer<SolverMass>) {
        if bounceEnergy.count < islands.count {
            bounceEnergy.append(contentsOf: repeatElement(BounceEnergy(), count: islands.count - bounceEnergy.count))
        }
        // Per island: the energy before the step, after the solve, and the bounce's quadratic terms.
        for k in 0..<count where preBounce[k] != s[k].velocity {
            let i = Int(awakeBodies[k])
            let m = mass[k].invMass > 0 ? 1 / mass[k].invMass : 0
            let inertia = mass[k].invI > 0 ? 1 / mass[k].invI : 0
            let a = motion[k]
            let v0 = bodies[i].velocity + Vec2(Double(a.accel.x), Double(a.accel.y)) * dt
            let w0 = bodies[i].angularVelocity + Double(a.angularAccel) * dt
            let pre = preBounce[k], post = s[k].velocity
            let v = Vec2(Double(pre.x), Double(pre.y)), w = Double(pre.z)
            let d = Vec2(Double(post.x - pre.x), Double(post.y - pre.y)), dw = Double(post.z - pre.z)
            let island = Int(bodies[i].island)
            bounceEnergy[island].before += 0.5 * (m * v0.lengthSquared + inertia * w0 * w0)
            bounceEnergy[island].solved += 0.5 * (m * v.lengthSquared + inertia * w * w)
            bounceEnergy[island].quadratic += 0.5 * (m * d.lengthSquared + inertia * dw * dw)
            bounceEnergy[island].linear += m * v.dot(d) + inertia * w * dw
            bounceEnergy[island].touched = true
        }
        // The fraction of the bounce each island keeps: all of it unless its energy would grow.
        for k in 0..<count where preBounce[k] != s[k].velocity {
            let island = Int(bodies[Int(awakeBodies[k])].island)
            var e = bounceEnergy[island]
            if e.touched {
                e.touched = false
                e.kept = Self.keptFraction(e)
                bounceEnergy[island] = e
            }
            let kept = Float(e.kept)
            if kept < 1 {
                let pre = preBounce[k]
                s[k].velocity = pre + (s[k].velocity - pre) * kept
            }
        }
        for k in 0..<count { bounceEnergy[Int(bodies[Int(awakeBodies[k])].island)] = BounceEnergy() }
    }

    /// The largest fraction `f` in 0...1 with solved + linear f + quadratic f² <= before.
    private static func keptFraction(_ e: BounceEnergy) -> Double {
        let full = e.solved + e.linear + e.quadratic
        guard full > e.before else { return 1 }
        guard e.solved < e.before, e.quadratic > 0 else { return 0 }
        let c = e.solved - e.before
        let root = (-e.linear + (e.linear * e.linear - 4 * e.quadratic * c).squareRoot()) / (2 * e.quadratic)
        return min(max(root, 0), 1)
    }
}

/// One island's energy sums for `limitBounceEnergy`.
struct BounceEnergy {
    var before = 0.0
    var solved = 0.0
    var quadratic = 0.0
    var linear = 0.0
    var touched = false
    var kept = 1.0
}
