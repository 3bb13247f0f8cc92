@testable import Dynamics

/// Independent geometry for the Part H tests (docs/ENGINE.md, "Only touching bodies interact"): items' outlines
/// rebuilt from their reported pose and size (circles, rectangles), separations by the separating axis test,
/// kinetic energy, and a seeded generator. Nothing here reads the engine's contacts.
struct Outline {
    var center: Vec2
    var radius: Double
    /// Corners, counter-clockwise on screen; empty for a circle.
    var corners: [Vec2]

    init(_ s: ItemState) {
        center = s.center
        if s.shape == .ellipse && s.width == s.height {
            radius = s.width / 2
            corners = []
        } else {
            radius = 0
            let c = cosine(s.angle), n = sine(s.angle), hw = s.width / 2, hh = s.height / 2
            corners = [Vec2(-hw, -hh), Vec2(hw, -hh), Vec2(hw, hh), Vec2(-hw, hh)].map {
                s.center + Vec2(c * $0.x - n * $0.y, n * $0.x + c * $0.y)
            }
        }
    }

    /// The box around the outline.
    var lo: Vec2 { corners.isEmpty ? center - Vec2(radius, radius) : Vec2(corners.map(\.x).min()!, corners.map(\.y).min()!) }
    var hi: Vec2 { corners.isEmpty ? center + Vec2(radius, radius) : Vec2(corners.map(\.x).max()!, corners.map(\.y).max()!) }

    private func axes() -> [Vec2] {
        (0..<corners.count).map { k in
            let e = corners[(k + 1) % corners.count] - corners[k]
            return Vec2(e.y, -e.x) * (1 / e.length)
        }
    }

    /// Extent of the outline along a unit axis.
    private func project(_ u: Vec2) -> (Double, Double) {
        if corners.isEmpty { return (u.dot(center) - radius, u.dot(center) + radius) }
        let d = corners.map { u.dot($0) }
        return (d.min()!, d.max()!)
    }

    /// Signed separation (negative: overlap depth): exact for two circles, the separating axis test (a lower
    /// bound of the distance when apart, the penetration depth when overlapping) otherwise.
    func separation(_ o: Outline) -> Double {
        if corners.isEmpty && o.corners.isEmpty { return (o.center - center).length - radius - o.radius }
        var candidates = axes() + o.axes()
        // A circle against a polygon: also the axis through the circle's centre and the nearest corner.
        let circle = corners.isEmpty ? self : (o.corners.isEmpty ? o : nil)
        let poly = corners.isEmpty ? o : self
        if let c = circle, let near = poly.corners.min(by: { ($0 - c.center).length < ($1 - c.center).length }) {
            let d = c.center - near
            if d.length > 1e-9 { candidates.append(d * (1 / d.length)) }
        }
        var best = -Double.infinity
        for u in candidates {
            let (a0, a1) = project(u), (b0, b1) = o.project(u)
            best = max(best, max(b0 - a1, a0 - b1))
        }
        return best
    }
}

extension DynamicAnimator {
    func outlines() -> [ItemID: Outline] {
        var out: [ItemID: Outline] = [:]
        for id in itemIDs { out[id] = Outline(item(id)!) }
        return out
    }

    /// The speed of the fastest of `ids` (pt/s), 0 for none.
    func fastest(_ ids: [ItemID]) -> Double {
        ids.map { item($0)?.velocity.length ?? 0 }.max() ?? 0
    }

    /// The deepest overlap between two of `ids` (pt, positive), 0 when none overlap.
    func deepestOverlap(_ ids: [ItemID]) -> Double {
        let o = ids.map { Outline(item($0)!) }
        var deepest = 0.0
        for i in 0..<o.count {
            for j in (i + 1)..<o.count { deepest = max(deepest, -o[i].separation(o[j])) }
        }
        return deepest
    }

    /// How far the farthest of `ids` reaches outside the rectangle `0...width × 0...height`.
    func farthestOutside(_ ids: [ItemID]) -> Double {
        var worst = 0.0
        for id in ids {
            let o = Outline(item(id)!)
            worst = max(worst, -o.lo.x, -o.lo.y, o.hi.x - width, o.hi.y - height)
        }
        return worst
    }

    /// Σ ½ m v² + ½ I ω² over `ids` (I from the item's reported mass and shape).
    func kineticEnergy(_ ids: [ItemID]) -> Double {
        var e = 0.0
        for id in ids {
            let s = item(id)!
            let inertia = s.shape == .ellipse && s.width == s.height
                ? s.mass * s.width * s.width / 8 : s.mass * (s.width * s.width + s.height * s.height) / 12
            e += 0.5 * s.mass * s.velocity.lengthSquared + 0.5 * inertia * s.angularVelocity * s.angularVelocity
        }
        return e
    }

    /// True when every item of the world sleeps (the animator has paused).
    var allAsleep: Bool { !world.bodies.contains { $0.awake && !$0.isStatic } }
}

/// SplitMix64: a tiny deterministic generator, so that a failing seed reproduces.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
