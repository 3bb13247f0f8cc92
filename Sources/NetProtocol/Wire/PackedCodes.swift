/// The number rules packed frames share on both ends (docs/PROTOCOL.md, "packed"): zigzag signs, the
/// choice of an Exp-Golomb order, quantization of poses, and the prediction a body's change is coded against.
///
/// Guarantees: every function is pure integer arithmetic (wrapping, never trapping), so the encoder and
/// every decoder — this one and the page's — compute the same numbers from the same tables.
public enum PackedCodes {
    /// Positions are sent in 1/16 pt.
    public static let positionSteps: Int64 = 16
    /// Angles are sent in 2^16 steps per turn.
    public static let angleStepsPerTurn = 65_536.0
    /// Radians per angle step.
    public static let radiansPerStep = 2 * Double.pi / angleStepsPerTurn
    /// The largest Exp-Golomb order a frame may declare (a 4-bit field).
    public static let maxOrder = 15

    @inline(__always) public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    @inline(__always) public static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ (0 &- Int64(bitPattern: value & 1))
    }

    /// A position in 1/16 pt from the 1/100 pt a full snapshot says (`PoseTable`), rounded to nearest (no
    /// ties exist: 16/100 never lands on a half), so the decoded position is within 1/32 pt of the snapshot's.
    @inline(__always) public static func sixteenths(centi: Int64) -> Int64 {
        let clamped = min(max(centi, -(1 << 40)), 1 << 40)
        let scaled = clamped * 4
        return scaled >= 0 ? (scaled + 12) / 25 : -((12 - scaled) / 25)
    }

    /// An angle in 2^16 steps per turn from the 1/1000 rad a full snapshot says, rounded to nearest; not
    /// wrapped to one turn, so the decoded angle is within half a step (4.8e-5 rad) of the snapshot's.
    @inline(__always) public static func angleSteps(milli: Int64) -> Int64 {
        let clamped = min(max(milli, -(1 << 40)), 1 << 40)
        let scaled = Double(clamped) / 1000 / radiansPerStep
        // `scaled.rounded()` (halves away from zero) without its library call: below 2^52 the fraction
        // `magnitude - whole` is exact, and every value here is below 2^44.
        let magnitude = scaled.magnitude
        let whole = Int64(magnitude)
        let rounded = magnitude - Double(whole) >= 0.5 ? whole + 1 : whole
        return scaled < 0 ? -rounded : rounded
    }

    /// The value a body's coordinate is predicted to have at `tick`, from the baseline (`base`, at
    /// `baseTick`) and the table the baseline was itself decoded against (`previous`, at `previousTick`):
    /// the baseline moved on at its last speed, `base + round((base - previous) * (tick - baseTick) /
    /// (baseTick - previousTick))`, rounding halves up; just `base` without a previous table or when a
    /// span is outside 1 ..< 2^31 ticks (0 for `tick - baseTick` is allowed).
    @inline(__always) public static func predict(base: Int64, previous: Int64, ahead: Int64, behind: Int64) -> Int64 {
        let step = base &- previous
        guard step != 0 else { return base }
        return base &+ roundedQuotient(step &* ahead, behind)
    }

    /// True when `ahead` and `behind` (tick spans) allow a prediction from two tables.
    @inline(__always) public static func predicts(ahead: Int64, behind: Int64) -> Bool {
        ahead >= 0 && ahead < (1 << 31) && behind > 0 && behind < (1 << 31)
    }

    /// floor((2a + b) / 2b) for b > 0: a / b rounded to nearest, halves up.
    @inline(__always) static func roundedQuotient(_ a: Int64, _ b: Int64) -> Int64 {
        let numerator = (a &* 2) &+ b
        let denominator = b &* 2
        var q = numerator / denominator
        if numerator % denominator != 0, numerator < 0 { q &-= 1 }
        return q
    }

    /// The Exp-Golomb order (0...15) that codes values whose bit lengths are counted in `histogram`
    /// (`histogram[b]`: values with `b` significant bits) in the fewest bits.
    public static func bestOrder(_ histogram: UnsafeBufferPointer<Int>) -> Int { bestOrderAndCost(histogram).order }

    /// `bestOrder` and its cost in bits: an upper bound of the codes' real length (a value of `b > k` bits
    /// is counted as if `q + 1` had one bit more than `q`), so a buffer of that many bits always holds them.
    static func bestOrderAndCost(_ histogram: UnsafeBufferPointer<Int>) -> (order: Int, cost: Int) {
        var n = 0
        for count in histogram { n += count }
        return bestOrderAndCost(histogram, count: n)
    }

    /// `bestOrderAndCost` for a histogram of `n` values in all.
    @inline(__always) static func bestOrderAndCost(_ histogram: UnsafeBufferPointer<Int>, count n: Int) -> (order: Int, cost: Int) {
        // cost(k) = n·(1 + k) + 2·Σ_{b > k} h[b]·(b − k): one pass down the histogram adds up the counts and bit
        // sums of the lengths above each k, so each order's cost takes a few operations. Past the longest
        // length `top` no code is longer than k bits and cost(k) = n·(1 + k) only grows, so the orders above
        // `top` are never cheaper; going down, a tie moves to the lower order, as the direct sums choose.
        var above = 0, bitsAbove = 0
        var best = 0, bestCost = Int.max
        var k = histogram.count - 1
        while k >= 0 {
            if k <= maxOrder {
                let cost = n * (1 + k) + 2 * (bitsAbove - k * above)
                if cost <= bestCost {
                    best = k
                    bestCost = cost
                }
            }
            above += histogram[k]
            bitsAbove += histogram[k] * k
            k -= 1
        }
        return bestCost == Int.max ? (0, 0) : (best, bestCost)
    }

    @inline(__always) static func bitLength(_ value: UInt64) -> Int { 64 - value.leadingZeroBitCount }
}
