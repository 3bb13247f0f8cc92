@testable import NetProtocol

/// The packed encoder written the plain way (docs/PROTOCOL.md, "packed"): `PackedReferenceBitWriter`, `PackedPredictor`
/// and one array per column, as the format reads. `PackedEncoder` must write the very same bytes faster.
enum PackedReferenceEncoder {
    static func deltaBase(_ current: PackedTable, _ base: PackedTable?) -> PackedTable? {
        PackedEncoder.deltaBase(current, base)
    }

    static func encode(_ current: PackedTable, base: PackedTable?, previous: PackedTable?, paused: Bool,
                              held: Bool, clients: Int, drags: [DragInfo]) -> [UInt8] {
        let delta = deltaBase(current, base) != nil
        var w = PackedReferenceBitWriter(capacity: 16 + current.count * (delta ? 4 : 8))
        var flags: UInt64 = delta ? 0 : PackedLayout.keyframeFlag
        if paused { flags |= PackedLayout.pausedFlag }
        if held { flags |= PackedLayout.heldFlag }
        if !drags.isEmpty { flags |= PackedLayout.dragsFlag }
        w.write(flags, bits: 8)
        if delta, let base {
            w.golomb(current.tick - base.tick, k: 0)
            w.signedGolomb(current.timeMs &- base.timeMs, k: PackedLayout.timeOrder)
        } else {
            w.golomb(current.tick, k: 0)
            w.signedGolomb(current.timeMs, k: 0)
        }
        w.golomb(UInt64(clamping: clients), k: 0)
        if !drags.isEmpty { writeDrags(drags, into: &w) }
        if delta, let base {
            writeChanges(current, base: base, previous: previous, into: &w)
        } else {
            writeAll(current, into: &w)
        }
        return w.bytes
    }

    private static func writeDrags(_ drags: [DragInfo], into w: inout PackedReferenceBitWriter) {
        w.golomb(UInt64(drags.count), k: 0)
        for drag in drags {
            w.signedGolomb(Int64(drag.client), k: 0)
            let name = Array(drag.name.utf8)
            w.golomb(UInt64(name.count), k: 0)
            for byte in name { w.write(UInt64(byte), bits: 8) }
            w.signedGolomb(Int64(drag.body), k: 0)
            for value in [drag.x, drag.y, drag.offset.x, drag.offset.y] {
                w.signedGolomb(PoseTable.centi(value), k: PackedLayout.dragOrder)
            }
        }
    }

    /// A keyframe's bodies: id gaps and the quantized poses themselves (predicted as 0).
    private static func writeAll(_ current: PackedTable, into w: inout PackedReferenceBitWriter) {
        var columns = Columns(capacity: current.count)
        var previousID = 0
        for i in 0..<current.count {
            let id = current.ids[i]
            columns.append(gap: PackedCodes.zigzag(Int64(id) &- Int64(previousID) &- 1),
                           x: current.x[i], y: current.y[i], angle: current.angle[i])
            previousID = id
        }
        columns.write(into: &w)
    }

    /// A delta's bodies: index gaps and the difference from each listed body's prediction.
    private static func writeChanges(_ current: PackedTable, base: PackedTable, previous: PackedTable?,
                                     into w: inout PackedReferenceBitWriter) {
        var columns = Columns(capacity: min(current.count, 256))
        let predictor = PackedPredictor(tick: current.tick, base: base, previous: previous)
        let cx = current.x, cy = current.y, ca = current.angle
        var next = 0
        for i in 0..<cx.count {
            let rx = cx[i] &- predictor.x(i)
            let ry = cy[i] &- predictor.y(i)
            let ra = ca[i] &- predictor.angle(i)
            guard rx != 0 || ry != 0 || ra != 0 else { continue }
            columns.append(gap: UInt64(i - next), x: rx, y: ry, angle: ra)
            next = i + 1
        }
        columns.write(into: &w)
    }

    /// The listed bodies' codes, gathered first so that each column's Exp-Golomb order can be chosen.
    private struct Columns {
        var gaps: [UInt64] = [], xs: [UInt64] = [], ys: [UInt64] = [], angles: [UInt64] = []

        init(capacity: Int) {
            gaps.reserveCapacity(capacity)
            xs.reserveCapacity(capacity)
            ys.reserveCapacity(capacity)
            angles.reserveCapacity(capacity)
        }

        mutating func append(gap: UInt64, x: Int64, y: Int64, angle: Int64) {
            gaps.append(gap)
            xs.append(PackedCodes.zigzag(x))
            ys.append(PackedCodes.zigzag(y))
            angles.append(PackedCodes.zigzag(angle))
        }

        func write(into w: inout PackedReferenceBitWriter) {
            w.golomb(UInt64(gaps.count), k: 0)
            guard !gaps.isEmpty else { return }
            let orders = [gaps, xs, ys, angles].map(Columns.order)
            for order in orders { w.write(UInt64(order), bits: PackedLayout.orderBits) }
            for i in gaps.indices {
                w.golomb(gaps[i], k: orders[0])
                w.golomb(xs[i], k: orders[1])
                w.golomb(ys[i], k: orders[2])
                w.golomb(angles[i], k: orders[3])
            }
        }

        static func order(_ values: [UInt64]) -> Int {
            var histogram = [Int](repeating: 0, count: 65)
            var longest = 0
            for value in values {
                let length = PackedCodes.bitLength(value)
                histogram[length] += 1
                longest = max(longest, length)
            }
            return histogram.withUnsafeBufferPointer { PackedCodes.bestOrder(UnsafeBufferPointer(rebasing: $0[0...longest])) }
        }
    }
}
