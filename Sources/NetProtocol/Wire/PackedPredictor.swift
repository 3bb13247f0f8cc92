/// Where each body of a delta frame is predicted to be (docs/PROTOCOL.md, "packed"): its baseline pose
/// moved on at the speed it had between the previous table and the baseline (`PackedCodes.predict`), or
/// the baseline pose itself when there is no previous table or the tick spans do not allow it.
///
/// Guarantees: encoder and decoder build it from the same tables and ticks, so they predict the same integers.
struct PackedPredictor {
    // The columns are held directly (not through the tables) so the per-body loops touch plain arrays.
    private let bx: [Int64], by: [Int64], ba: [Int64]
    private let px: [Int64], py: [Int64], pa: [Int64]
    private let predicts: Bool
    /// The frames are evenly spaced (the usual case): the prediction is base + (base - previous) exactly.
    private let even: Bool
    private let ahead: Int64
    private let behind: Int64

    init(tick: UInt64, base: PackedTable, previous: PackedTable?) {
        bx = base.x
        by = base.y
        ba = base.angle
        let ahead = Int64(truncatingIfNeeded: tick &- base.tick)
        let behind = previous.map { Int64(truncatingIfNeeded: base.tick &- $0.tick) } ?? 0
        let usable = previous.map { $0.count == base.count } ?? false
        predicts = usable && PackedCodes.predicts(ahead: ahead, behind: behind)
        px = predicts ? previous!.x : []
        py = predicts ? previous!.y : []
        pa = predicts ? previous!.angle : []
        even = ahead == behind
        self.ahead = ahead
        self.behind = behind
    }

    @inline(__always) private func predict(_ base: Int64, _ previous: Int64) -> Int64 {
        // floor((2·s·a + a) / 2a) = s for a = b: the general rule, without its division.
        if even { return base &+ (base &- previous) }
        return PackedCodes.predict(base: base, previous: previous, ahead: ahead, behind: behind)
    }

    @inline(__always) func x(_ i: Int) -> Int64 { predicts ? predict(bx[i], px[i]) : bx[i] }
    @inline(__always) func y(_ i: Int) -> Int64 { predicts ? predict(by[i], py[i]) : by[i] }
    @inline(__always) func angle(_ i: Int) -> Int64 { predicts ? predict(ba[i], pa[i]) : ba[i] }
}
