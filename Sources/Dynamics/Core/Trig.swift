/// Sine and cosine computed by dyn itself, from IEEE `Double` additions and multiplications only (no libm,
/// no fused multiply-add), so that a step gives the same bits on every platform and C library: the pinned
/// determinism hash (Tests/DynamicsTests/DeterminismTests.swift) must hold on Linux, macOS and musl alike,
/// and libm's `sin`/`cos` are not the same function everywhere.
///
/// Accuracy: within 1 ulp of the true value for |x| ≤ 1.6·10⁶ rad (the argument is reduced by π/2 carried
/// to 119 bits, Cody–Waite style, then a polynomial is evaluated on [−π/4, π/4]); beyond that the argument is
/// first brought into [−2π, 2π] with an exact remainder by `Double(2π)`, which stays deterministic but
/// loses about |x|·2.4·10⁻¹⁶ rad of absolute accuracy. Non-finite arguments give NaN; sin(±0) = ±0.
enum Trig {
    /// sin x.
    static func sin(_ x: Double) -> Double { sinCos(x).sin }

    /// cos x.
    static func cos(_ x: Double) -> Double { sinCos(x).cos }

    /// Both at once (one argument reduction), as a rotation needs them.
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        if x == 0 { return (x, 1) }
        guard x.isFinite else { return (.nan, .nan) }
        let (quadrant, hi, lo) = reduce(x)
        let s = sinKernel(hi, lo), c = cosKernel(hi, lo)
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    // MARK: argument reduction

    /// π/2 as the sum of three doubles: the first two have 33 significant bits, so that k·part is exact for
    /// |k| < 2²⁰; together they carry π/2 to about 2⁻¹¹⁹.
    static let halfPiA = 1.5707963267341256  // 0x1.921fb544p+0
    static let halfPiB = 6.077100506303966e-11  // 0x1.0b4611a6p-34
    static let halfPiC = 2.0222662487959506e-21  // 0x1.3198a2e037073p-69
    static let twoOverPi = 0.6366197723675814
    static let quarterPi = 0.7853981633974483
    static let twoPi = 6.283185307179586
    /// Largest |x| whose quotient by π/2 stays below 2²⁰ (so that the products above are exact).
    static let exactReductionLimit = 1.6e6

    /// x = k·π/2 + (hi + lo) with |hi + lo| ≤ π/4 (plus rounding), |lo| ≤ ulp(hi)/2; returns k mod 4.
    @inline(__always)
    static func reduce(_ input: Double) -> (quadrant: Int, hi: Double, lo: Double) {
        var x = input
        if abs(x) <= quarterPi { return (0, x, 0) }
        // An exact remainder (IEEE fmod is exact everywhere), so still deterministic for huge angles.
        if abs(x) > exactReductionLimit { x = x.truncatingRemainder(dividingBy: twoPi) }
        let k = (x * twoOverPi).rounded(.toNearestOrEven)
        let r1 = x - k * halfPiA  // exact: k·halfPiA is exact and close to x
        let w = k * halfPiB  // exact: 21 + 33 bits
        // Two-sum of r1 − w: r1 may be tiny when x is close to a multiple of π/2.
        let s = r1 - w
        let bb = s - r1
        let err = (r1 - (s - bb)) - (w + bb)
        let tail = err - k * halfPiC
        let hi = s + tail
        let lo = tail - (hi - s)
        return (Int(k) & 3, hi, lo)  // two's complement: −1 & 3 = 3
    }

    // MARK: polynomials on [−π/4, π/4]

    // Taylor coefficients 1/n! with alternating signs, carried far enough that the first term left out is
    // below 10⁻¹⁸ relative on [−π/4, π/4] (x¹⁹/19! and x¹⁸/18!), so rounding, not truncation, sets the error.
    static let s1 = -0.16666666666666666  // −1/3!
    static let s2 = 0.008333333333333333  // +1/5!
    static let s3 = -0.0001984126984126984  // −1/7!
    static let s4 = 2.7557319223985893e-06  // +1/9!
    static let s5 = -2.505210838544172e-08  // −1/11!
    static let s6 = 1.6059043836821613e-10  // +1/13!
    static let s7 = -7.647163731819816e-13  // −1/15!
    static let s8 = 2.8114572543455206e-15  // +1/17!

    static let c2 = 0.041666666666666664  // +1/4!
    static let c3 = -0.001388888888888889  // −1/6!
    static let c4 = 2.48015873015873e-05  // +1/8!
    static let c5 = -2.755731922398589e-07  // −1/10!
    static let c6 = 2.08767569878681e-09  // +1/12!
    static let c7 = -1.1470745597729725e-11  // −1/14!
    static let c8 = 4.779477332387385e-14  // +1/16!

    /// sin(hi + lo) ≈ hi + (hi³·P(hi²) + lo·cos hi), with cos hi ≈ 1 − hi²/2 (lo is below ulp(hi)).
    @inline(__always)
    static func sinKernel(_ hi: Double, _ lo: Double) -> Double {
        let z = hi * hi
        let p = s1 + z * (s2 + z * (s3 + z * (s4 + z * (s5 + z * (s6 + z * (s7 + z * s8))))))
        return hi + (hi * z * p + lo * (1 - 0.5 * z))
    }

    /// cos(hi + lo) ≈ (1 − hi²/2) + hi⁴·Q(hi²) − hi·lo, with the rounding error of 1 − hi²/2 added back.
    @inline(__always)
    static func cosKernel(_ hi: Double, _ lo: Double) -> Double {
        let z = hi * hi
        let q = c2 + z * (c3 + z * (c4 + z * (c5 + z * (c6 + z * (c7 + z * c8)))))
        let hz = 0.5 * z
        let w = 1 - hz
        return w + (((1 - w) - hz) + (z * z * q - hi * lo))
    }
}
