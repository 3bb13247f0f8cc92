/// Where each body of a delta frame is predicted to be (docs/PROTOCOL.md, "packed"): its baseline pose
/// moved on at the speed it had between the previous table and the baseline (`PackedCodes.predict`), or
/// the baseline pose itself when there is no previous table or the tick spans do not allow it.
///
/// Guarantees: encoder and decoder build it from the same tables and ticks, so they predict the same integers.
struct PackedPredictor {
    let base: PackedTable
    let previous: PackedTable?
    let ahead: Int64
    let behind: Int64

    init(tick: UInt64, base: PackedTable, previous: PackedTable?) {
        self.base = base
        let ahead = Int64(truncatingIfNeeded: tick &- base.tick)
        let behind = previous.map { Int64(truncatingIfNeeded: base.tick &- $0.tick) } ?? 0
        let usable = previous.map { $0.count == base.count } ?? false
        self.previous = usable && PackedCodes.predicts(ahead: ahead, behind: behind) ? previous : nil
        self.ahead = ahead
        self.behind = behind
    }

    @inline(__always) func x(_ i: Int) -> Int64 {
        guard let previous else { return base.x[i] }
        return PackedCodes.predict(base: base.x[i], previous: previous.x[i], ahead: ahead, behind: behind)
    }

    @inline(__always) func y(_ i: Int) -> Int64 {
        guard let previous else { return base.y[i] }
        return PackedCodes.predict(base: base.y[i], previous: previous.y[i], ahead: ahead, behind: behind)
    }

    @inline(__always) func angle(_ i: Int) -> Int64 {
        guard let previous else { return base.angle[i] }
        return PackedCodes.predict(base: base.angle[i], previous: previous.angle[i], ahead: ahead, behind: behind)
    }
}
