/// The quantized poses of every body at one tick, as a packed client holds them after applying the frame
/// of that tick (docs/PROTOCOL.md, "packed"), and as the server keeps them as a connection's baseline.
///
/// Guarantees: x and y are in 1/16 pt and angles in 2^16 steps per turn, quantized from the 1/100 pt and
/// 1/1000 rad a full snapshot of the same tick says (`PackedCodes`), so server and client hold the very
/// same integers; `timeMs` is the world time in ms as snapshots round it. Immutable once built, so
/// connections (and threads) share it by reference.
public final class PackedTable: @unchecked Sendable {
    public let tick: UInt64
    public let timeMs: Int64
    public let ids: [Int]
    public let x: [Int64]
    public let y: [Int64]
    public let angle: [Int64]

    public init(tick: UInt64, timeMs: Int64, ids: [Int], x: [Int64], y: [Int64], angle: [Int64]) {
        precondition(ids.count == x.count && ids.count == y.count && ids.count == angle.count)
        self.tick = tick
        self.timeMs = timeMs
        self.ids = ids
        self.x = x
        self.y = y
        self.angle = angle
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
