/// Smooth, bounded, deterministic noise for the noise and turbulence fields: value noise on a lattice over
/// (x, y, time), interpolated with smoothstep, one channel per component. Every component is within -1...1,
/// the same inputs and seed give the same vector on every run.
enum FieldNoise {
    /// The lattice spacing in points: `smoothness` 0 gives a 25 pt grain, 1 a 500 pt one.
    static func cellSize(_ smoothness: Double) -> Double { 25 + 475 * smoothness }

    static func vector(_ field: FieldBehavior, at point: Vec2, time: Double) -> Vec2 {
        let cell = cellSize(field.smoothness)
        let x = point.x / cell, y = point.y / cell, t = time * field.animationSpeed
        return Vec2(channel(field.seed, x, y, t), channel(field.seed ^ 0x9E37_79B9_7F4A_7C15, x, y, t))
    }

    private static func channel(_ seed: UInt64, _ x: Double, _ y: Double, _ t: Double) -> Double {
        let fx = x.rounded(.down), fy = y.rounded(.down), ft = t.rounded(.down)
        guard abs(fx) < 1e15, abs(fy) < 1e15, abs(ft) < 1e15 else { return 0 }
        let ix = Int64(fx), iy = Int64(fy), it = Int64(ft)
        let ux = smooth(x - fx), uy = smooth(y - fy), ut = smooth(t - ft)
        func corner(_ dx: Int64, _ dy: Int64, _ dt: Int64) -> Double { lattice(seed, ix &+ dx, iy &+ dy, it &+ dt) }
        func lerp(_ a: Double, _ b: Double, _ u: Double) -> Double { a + (b - a) * u }
        let t0 = lerp(lerp(corner(0, 0, 0), corner(1, 0, 0), ux), lerp(corner(0, 1, 0), corner(1, 1, 0), ux), uy)
        let t1 = lerp(lerp(corner(0, 0, 1), corner(1, 0, 1), ux), lerp(corner(0, 1, 1), corner(1, 1, 1), ux), uy)
        return lerp(t0, t1, ut)
    }

    private static func smooth(_ u: Double) -> Double { u * u * (3 - 2 * u) }

    /// A value in -1...1 for one lattice point (SplitMix64 of the mixed coordinates).
    private static func lattice(_ seed: UInt64, _ x: Int64, _ y: Int64, _ t: Int64) -> Double {
        var z = seed &+ UInt64(bitPattern: x) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ UInt64(bitPattern: y)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ UInt64(bitPattern: t)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        z = z &* 0xBF58_476D_1CE4_E5B9
        z ^= z >> 29
        return Double(z >> 11) / Double(1 << 52) - 1
    }
}
