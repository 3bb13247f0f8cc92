/// The quantized poses of every body at one tick, as a packed client holds them after applying the frame
/// of that tick (docs/PROTOCOL.md, "packed"), and as the server keeps them as a connection's baseline.
///
/// Guarantees: x and y are in 1/16 pt and angles in 2^16 steps per turn, quantized from the 1/100 pt and
/// 1/1000 rad a full snapshot of the same tick says (`PackedCodes`), so server and client hold the very
/// same integers; `timeMs` is the world time in ms as snapshots round it. Never changed while anyone holds
/// it: only a `PackedFrameEncoder`'s pool refills a table, once nothing but the pool refers to it, so
/// connections (and threads) share it by reference. (Accesses never overlap, by that rule: the columns skip
/// dynamic exclusivity checks, which cost more than a small frame's encoding.)
public final class PackedTable: @unchecked Sendable {
    @exclusivity(unchecked) public private(set) var tick: UInt64
    @exclusivity(unchecked) public private(set) var timeMs: Int64
    @exclusivity(unchecked) public private(set) var ids: [Int]
    @exclusivity(unchecked) public private(set) var x: [Int64]
    @exclusivity(unchecked) public private(set) var y: [Int64]
    @exclusivity(unchecked) public private(set) var angle: [Int64]

    public init(tick: UInt64, timeMs: Int64, ids: [Int], x: [Int64], y: [Int64], angle: [Int64]) {
        precondition(ids.count == x.count && ids.count == y.count && ids.count == angle.count)
        self.tick = tick
        self.timeMs = timeMs
        self.ids = ids
        self.x = x
        self.y = y
        self.angle = angle
    }

    /// Quantizes `bodies` at `tick` and world time `time` (seconds) as a full snapshot rounds them, then as
    /// `init(_:time:)` quantizes that snapshot's numbers (the same integers, in one pass).
    public convenience init(tick: UInt64, time: Double, bodies: UnsafeBufferPointer<BodyState>) {
        self.init(tick: 0, timeMs: 0, ids: [], x: [], y: [], angle: [])
        refill(tick: tick, time: time, ids: bodies.map(\.id), bodies: bodies)
    }

    /// Makes this table the quantized `bodies` (`ids` must be their ids, in order): only its pool calls this,
    /// while nothing else holds the table. The columns are written in place when their length is unchanged.
    func refill(tick: UInt64, time: Double, ids: [Int], bodies: UnsafeBufferPointer<BodyState>) {
        self.tick = tick
        timeMs = PoseTable.milli(time)
        self.ids = ids
        let n = bodies.count
        if x.count != n {
            x = [Int64](repeating: 0, count: n)
            y = [Int64](repeating: 0, count: n)
            angle = [Int64](repeating: 0, count: n)
        }
        x.withUnsafeMutableBufferPointer { x in
            y.withUnsafeMutableBufferPointer { y in
                angle.withUnsafeMutableBufferPointer { angle in
                    for i in 0..<n {
                        let body = bodies[i]
                        x[i] = PackedCodes.sixteenths(centi: PoseTable.centi(body.x))
                        y[i] = PackedCodes.sixteenths(centi: PoseTable.centi(body.y))
                        angle[i] = PackedCodes.angleSteps(milli: PoseTable.milli(body.angle))
                    }
                }
            }
        }
    }

    /// Quantizes the rounded poses of `poses` (a full snapshot's numbers) at world time `time` (seconds).
    public convenience init(_ poses: PoseTable, time: Double) {
        self.init(tick: poses.tick, timeMs: PoseTable.milli(time), ids: poses.ids,
                  x: PackedTable.quantize(poses.x, PackedCodes.sixteenths(centi:)),
                  y: PackedTable.quantize(poses.y, PackedCodes.sixteenths(centi:)),
                  angle: PackedTable.quantize(poses.angle, PackedCodes.angleSteps(milli:)))
    }

    /// `column.map(rule)`, written straight into the new array (no growth checks per body).
    @inline(__always) private static func quantize(_ column: [Int64], _ rule: (Int64) -> Int64) -> [Int64] {
        column.withUnsafeBufferPointer { source in
            [Int64](unsafeUninitializedCapacity: source.count) { target, count in
                for i in 0..<source.count { target.initializeElement(at: i, to: rule(source[i])) }
                count = source.count
            }
        }
    }

    public var count: Int { ids.count }

    /// The poses as a snapshot's bodies (velocities 0: packed frames carry none).
    public func bodies() -> [BodyState] {
        ids.indices.map { i in
            BodyState(id: ids[i], x: Double(x[i]) / Double(PackedCodes.positionSteps),
                      y: Double(y[i]) / Double(PackedCodes.positionSteps),
                      angle: Double(angle[i]) * PackedCodes.radiansPerStep)
        }
    }
}
