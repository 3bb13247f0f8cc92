/// The rounded poses of every body at one tick: what a compact client holds after applying the frame of
/// that tick (docs/PROTOCOL.md, `frame`), and what the server keeps as a connection's baseline.
///
/// Guarantees: x and y are in 1/100 pt and the angle in 1/1000 rad, rounded exactly as `SnapshotEncoder`
/// rounds full snapshots (half away from zero), so `Double(x) / 100` is the very number a full snapshot
/// of the same tick says. The table is immutable once built, so connections can share it by reference.
public final class PoseTable: @unchecked Sendable {
    public let tick: UInt64
    public let ids: [Int]
    public let x: [Int64]
    public let y: [Int64]
    public let angle: [Int64]

    public init(tick: UInt64, ids: [Int], x: [Int64], y: [Int64], angle: [Int64]) {
        precondition(ids.count == x.count && ids.count == y.count && ids.count == angle.count)
        self.tick = tick
        self.ids = ids
        self.x = x
        self.y = y
        self.angle = angle
    }

    /// Rounds `bodies` as a full snapshot of `tick` would.
    public convenience init(tick: UInt64, bodies: UnsafeBufferPointer<BodyState>) {
        var ids: [Int] = [], x: [Int64] = [], y: [Int64] = [], angle: [Int64] = []
        ids.reserveCapacity(bodies.count)
        x.reserveCapacity(bodies.count)
        y.reserveCapacity(bodies.count)
        angle.reserveCapacity(bodies.count)
        for body in bodies {
            ids.append(body.id)
            x.append(PoseTable.centi(body.x))
            y.append(PoseTable.centi(body.y))
            angle.append(PoseTable.milli(body.angle))
        }
        self.init(tick: tick, ids: ids, x: x, y: y, angle: angle)
    }

    public var count: Int { ids.count }

    /// A position in 1/100 pt.
    @inline(__always) public static func centi(_ value: Double) -> Int64 { units(value * 100) }
    /// An angle in 1/1000 rad.
    @inline(__always) public static func milli(_ value: Double) -> Int64 { units(value * 1000) }

    /// The integer `ByteCursor.rounded` writes for a scaled value: half away from zero, non-finite as 0.
    /// Magnitudes a bounded world never reaches (>= 9e15 units, where a snapshot falls back to whole points)
    /// are clamped.
    @inline(__always) static func units(_ scaled: Double) -> Int64 {
        guard scaled.magnitude < 9.0e15 else {
            guard scaled.isFinite else {
                NonFiniteValues.note()
                return 0
            }
            return scaled < 0 ? -9_000_000_000_000_000 : 9_000_000_000_000_000
        }
        return Int64(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
    }
}
