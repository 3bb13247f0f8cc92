/// e^x and ln x computed by dyn itself from IEEE `Double` arithmetic (no libm, no fused multiply-add), for
/// the same reason as `Trig`: anything the step computes must not depend on the platform's C library. (The
/// uniform grid's cell size, their only user, went with the grid: the broad phase is now a pair of dynamic
/// trees, docs/ENGINE.md "Broad phase"; they stay for the next step computation that needs them.) Both are
/// within 1 ulp of glibc's over sweeps of their arguments.
enum ExpLog {
    /// ln 2 as a 32-bit head (k·head is exact for the |k| ≤ 1 075 an exponent can need) and a tail.
    static let ln2Hi = 0.6931471806019545
    static let ln2Lo = -4.2009150726810846e-11
    static let invLn2 = 1.4426950408889634
    static let halfSqrt2 = 0.7071067811865476
    /// Beyond these e^x overflows to +∞ or underflows to 0.
    static let overflow = 709.782712893384
    static let underflow = -745.1332191019412

    // 1/k! for k = 2...13: on |r| ≤ ln2/2 the first term left out (r¹⁴/14!) is below 10⁻¹⁷.
    static let e2 = 0.5, e3 = 0.16666666666666666, e4 = 0.041666666666666664, e5 = 0.008333333333333333
    static let e6 = 0.001388888888888889, e7 = 0.0001984126984126984, e8 = 2.48015873015873e-05
    static let e9 = 2.7557319223985893e-06, e10 = 2.755731922398589e-07, e11 = 2.505210838544172e-08
    static let e12 = 2.08767569878681e-09, e13 = 1.6059043836821613e-10

    /// e^x: x = k·ln2 + r with |r| ≤ ln2/2, e^r by its series, then scaled by 2^k exactly.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > overflow { return .infinity }
        if x < underflow { return 0 }
        let k = (x * invLn2).rounded(.toNearestOrEven)
        let hi = x - k * ln2Hi  // exact
        let lo = -(k * ln2Lo)
        let r = hi + lo
        let c = (hi - r) + lo  // what r lost
        let p = e2 + r * (e3 + r * (e4 + r * (e5 + r * (e6 + r * (e7 + r * (e8 + r * (e9 + r * (e10
            + r * (e11 + r * (e12 + r * e13))))))))))
        let y = 1 + (r + (r * r * p + c * (1 + r)))
        // y·2^k, split in two so that 2^k itself never overflows or underflows.
        let k1 = Int(k) / 2, k2 = Int(k) - Int(k) / 2
        return y * Double(sign: .plus, exponent: k1, significand: 1) * Double(sign: .plus, exponent: k2, significand: 1)
    }

    // 2/(2k+1) for k = 1...12: ln(1+f) = 2·atanh s, s = f/(2+f), |s| ≤ 0.172.
    static let l1 = 0.6666666666666666, l2 = 0.4, l3 = 0.2857142857142857, l4 = 0.2222222222222222
    static let l5 = 0.18181818181818182, l6 = 0.15384615384615385, l7 = 0.13333333333333333
    static let l8 = 0.11764705882352941, l9 = 0.10526315789473684, l10 = 0.09523809523809523
    static let l11 = 0.08695652173913043, l12 = 0.08

    /// ln x: x = 2^e·(1+f) with 1+f in [√2/2, √2), ln(1+f) = f − f²/2 + s·(f²/2 + R(s²)).
    static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x == .infinity { return x }
        var e = Double(x.exponent)
        var m = x.significand  // [1, 2), subnormals normalised
        if m > 2 * halfSqrt2 {
            m *= 0.5
            e += 1
        }
        let f = m - 1  // exact
        let s = f / (2 + f)
        let z = s * s
        let r = z * (l1 + z * (l2 + z * (l3 + z * (l4 + z * (l5 + z * (l6 + z * (l7 + z * (l8 + z * (l9
            + z * (l10 + z * (l11 + z * l12)))))))))))
        let hfsq = 0.5 * f * f
        return e * ln2Hi - ((hfsq - (s * (hfsq + r) + e * ln2Lo)) - f)
    }
}

/// x^y for x > 0 as e^(y·ln x), from dyn's own `ExpLog` (libm's `pow` differs between platforms). The error
/// grows with |y·ln x|: about 10⁻¹³ relative at |y·ln x| = 300, which no force in the step comes near.
@inline(__always) func power(_ x: Double, _ y: Double) -> Double { ExpLog.exp(y * ExpLog.log(x)) }
