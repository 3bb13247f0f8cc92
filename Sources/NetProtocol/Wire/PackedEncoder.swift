/// Encodes packed frames (docs/PROTOCOL.md, "packed"): a keyframe of every body, or a delta against the
/// baseline the client holds, listing only bodies whose quantized pose differs from its prediction.
///
/// Guarantees: a pure function of its arguments (so it runs on any thread, once per distinct baseline);
/// `PackedApplier` holding `base` (decoded against `previous`) turns the bytes back into exactly `current`,
/// with the same flags, clients and drags. A delta needs `base` with the same ids in the same order (the
/// body set changes only with a `scene`); otherwise, or without `base`, the frame is a keyframe.
///
/// Cost: one pass over the bodies gathers the listed bodies' codes and their bit-length histograms into one
/// scratch buffer, a second writes them into a buffer sized from those histograms, a word at a time
/// (`PackedBitSink`); no allocation per body. The server encodes with a `PackedFrameEncoder`, which keeps
/// that scratch and buffer across frames (docs/ARCHITECTURE.md, packed frames).
public enum PackedEncoder {
    /// The baseline a frame of `current` is a delta against: `base` when it has the same ids in the same
    /// order and is not newer; nil when the frame must be a keyframe.
    public static func deltaBase(_ current: PackedTable, _ base: PackedTable?) -> PackedTable? {
        guard let base, base.ids == current.ids, current.tick >= base.tick else { return nil }
        return base
    }

    public static func encode(_ current: PackedTable, base: PackedTable?, previous: PackedTable?, paused: Bool,
                              held: Bool, clients: Int, drags: [DragInfo]) -> [UInt8] {
        encode(current, checkedBase: deltaBase(current, base), previous: previous, paused: paused, held: held,
               clients: clients, drags: drags)
    }

    /// `encode` for a `base` that `deltaBase` already accepted (or nil for a keyframe).
    public static func encode(_ current: PackedTable, checkedBase base: PackedTable?, previous: PackedTable?,
                              paused: Bool, held: Bool, clients: Int, drags: [DragInfo]) -> [UInt8] {
        let scratch = PackedFrameEncoder()
        return Array(scratch.encode(current, checkedBase: base, previous: previous, paused: paused, held: held,
                                    clients: clients, drags: drags))
    }

    /// The frame's bits at most, besides its bodies: flags, tick, time and clients; each drag; the body count.
    static func headerBits(_ drags: [DragInfo]) -> Int {
        var bits = 8 + 3 * 129 + 4 + 129 + 16
        if !drags.isEmpty { bits += 129 + drags.reduce(0) { $0 + 1000 + 8 * $1.name.utf8.count } }
        return bits
    }

    /// Writes the frame of `current` against `base` (checked, or nil for a keyframe) into `w`, the bodies'
    /// codes gathered in `codes` (room for `4 * current.count` codes) and `histograms`
    /// (`BodyCodes.histogramSize`, all zeros, and left so); `reserve(bits)` is called once with the frame's bits at
    /// most, before anything is written, and returns the sink to write to.
    static func write(_ current: PackedTable, checkedBase base: PackedTable?, previous: PackedTable?, paused: Bool,
                      held: Bool, clients: Int, drags: [DragInfo], codes: UnsafeMutablePointer<UInt64>,
                      histograms: UnsafeMutableBufferPointer<Int>, reserve: (Int) -> PackedBitSink) -> Int {
        // The shape the body loops rely on (cheap; `deltaBase` checked the ids themselves).
        precondition(base.map { $0.count == current.count && current.tick >= $0.tick } ?? true)
        var bodies = BodyCodes(codes: codes, histograms: histograms)
        if let base {
            bodies.gatherChanges(current, base: base, previous: previous)
        } else {
            bodies.gatherAll(current)
        }
        let (orders, bodyBits) = bodies.orders()
        bodies.clearHistograms()
        var w = reserve(headerBits(drags) + bodyBits)
        var flags: UInt64 = base == nil ? PackedLayout.keyframeFlag : 0
        if paused { flags |= PackedLayout.pausedFlag }
        if held { flags |= PackedLayout.heldFlag }
        if !drags.isEmpty { flags |= PackedLayout.dragsFlag }
        w.write(flags, bits: 8)
        if let base {
            w.golomb(current.tick - base.tick, k: 0)
            w.signedGolomb(current.timeMs &- base.timeMs, k: PackedLayout.timeOrder)
        } else {
            w.golomb(current.tick, k: 0)
            w.signedGolomb(current.timeMs, k: 0)
        }
        w.golomb(UInt64(clamping: clients), k: 0)
        if !drags.isEmpty { writeDrags(drags, into: &w) }
        bodies.write(orders: orders, into: &w)
        return w.finish()
    }

    private static func writeDrags(_ drags: [DragInfo], into w: inout PackedBitSink) {
        w.golomb(UInt64(drags.count), k: 0)
        for drag in drags {
            w.signedGolomb(Int64(drag.client), k: 0)
            w.golomb(UInt64(drag.name.utf8.count), k: 0)
            for byte in drag.name.utf8 { w.write(UInt64(byte), bits: 8) }
            w.signedGolomb(Int64(drag.body), k: 0)
            w.signedGolomb(PoseTable.centi(drag.x), k: PackedLayout.dragOrder)
            w.signedGolomb(PoseTable.centi(drag.y), k: PackedLayout.dragOrder)
            w.signedGolomb(PoseTable.centi(drag.offset.x), k: PackedLayout.dragOrder)
            w.signedGolomb(PoseTable.centi(drag.offset.y), k: PackedLayout.dragOrder)
        }
    }
}

/// The listed bodies' codes (index or id gap, x, y, angle, zigzagged), four per body in `codes`, gathered
/// before writing so that each column's Exp-Golomb order can be chosen from its bit-length histogram.
struct BodyCodes {
    /// Four histograms of 65 bit lengths (0...64), one per column.
    static let histogramSize = 4 * 65
    let codes: UnsafeMutablePointer<UInt64>
    let histograms: UnsafeMutableBufferPointer<Int>
    private(set) var listed = 0
    /// The bits set in any code of each column: its longest code's bit length.
    private var any: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// `histograms` must be all zeros (`clearHistograms` leaves them so).
    init(codes: UnsafeMutablePointer<UInt64>, histograms: UnsafeMutableBufferPointer<Int>) {
        self.codes = codes
        self.histograms = histograms
    }

    /// Zeroes what `append` counted: only the lengths up to each column's longest code, so a small frame does
    /// not clear the whole table.
    func clearHistograms() {
        let h = histograms.baseAddress!
        (h + 0).update(repeating: 0, count: PackedCodes.bitLength(any.0) + 1)
        (h + 65).update(repeating: 0, count: PackedCodes.bitLength(any.1) + 1)
        (h + 130).update(repeating: 0, count: PackedCodes.bitLength(any.2) + 1)
        (h + 195).update(repeating: 0, count: PackedCodes.bitLength(any.3) + 1)
    }

    @inline(__always) private mutating func append(_ gap: UInt64, _ x: Int64, _ y: Int64, _ angle: Int64) {
        let zx = PackedCodes.zigzag(x), zy = PackedCodes.zigzag(y), za = PackedCodes.zigzag(angle)
        let slot = codes + 4 * listed
        slot[0] = gap
        slot[1] = zx
        slot[2] = zy
        slot[3] = za
        listed += 1
        let h = histograms.baseAddress!
        h[PackedCodes.bitLength(gap)] += 1
        h[65 + PackedCodes.bitLength(zx)] += 1
        h[130 + PackedCodes.bitLength(zy)] += 1
        h[195 + PackedCodes.bitLength(za)] += 1
        any = (any.0 | gap, any.1 | zx, any.2 | zy, any.3 | za)
    }

    /// A keyframe's bodies: id gaps and the quantized poses themselves (predicted as 0).
    mutating func gatherAll(_ current: PackedTable) {
        current.ids.withUnsafeBufferPointer { ids in
            current.withColumns { x, y, angle in
                var previousID: Int64 = 0
                for i in 0..<ids.count {
                    let id = Int64(ids[i])
                    append(PackedCodes.zigzag(id &- previousID &- 1), x[i], y[i], angle[i])
                    previousID = id
                }
            }
        }
    }

    /// A delta's bodies: index gaps and the difference from each listed body's prediction (`PackedPredictor`'s
    /// rule, with the same integers, specialised here for its three cases).
    mutating func gatherChanges(_ current: PackedTable, base: PackedTable, previous: PackedTable?) {
        let ahead = Int64(truncatingIfNeeded: current.tick &- base.tick)
        let behind = previous.map { Int64(truncatingIfNeeded: base.tick &- $0.tick) } ?? 0
        let usable = previous.map { $0.count == base.count } ?? false
        guard usable, PackedCodes.predicts(ahead: ahead, behind: behind), let previous else {
            gather(current, base: base, previous: base) { b, _ in b }
            return
        }
        if ahead == behind {
            // floor((2·s·a + a) / 2a) = s for a = b: the general rule, without its division.
            gather(current, base: base, previous: previous) { b, p in b &+ (b &- p) }
        } else {
            gather(current, base: base, previous: previous) { b, p in
                PackedCodes.predict(base: b, previous: p, ahead: ahead, behind: behind)
            }
        }
    }

    @inline(__always) private mutating func gather(_ current: PackedTable, base: PackedTable, previous: PackedTable,
                                                   predict: (Int64, Int64) -> Int64) {
        current.withColumns { cx, cy, ca in
            base.withColumns { bx, by, ba in
                previous.withColumns { px, py, pa in
                    var next = 0
                    for i in 0..<cx.count {
                        let rx = cx[i] &- predict(bx[i], px[i])
                        let ry = cy[i] &- predict(by[i], py[i])
                        let ra = ca[i] &- predict(ba[i], pa[i])
                        guard rx | ry | ra != 0 else { continue }
                        append(UInt64(i - next), rx, ry, ra)
                        next = i + 1
                    }
                }
            }
        }
    }

    /// Each column's order and the bodies' bits at most (count, orders and codes).
    func orders() -> (orders: (Int, Int, Int, Int), bits: Int) {
        guard listed > 0 else { return ((0, 0, 0, 0), 129) }
        func best(_ column: Int, _ any: UInt64) -> (order: Int, cost: Int) {
            let longest = PackedCodes.bitLength(any)
            return PackedCodes.bestOrderAndCost(UnsafeBufferPointer(rebasing: histograms[(column * 65)...(column * 65 + longest)]),
                                                count: listed)
        }
        let g = best(0, any.0), x = best(1, any.1), y = best(2, any.2), a = best(3, any.3)
        return ((g.order, x.order, y.order, a.order), 129 + 4 * PackedLayout.orderBits + g.cost + x.cost + y.cost + a.cost)
    }

    func write(orders: (Int, Int, Int, Int), into w: inout PackedBitSink) {
        w.golomb(UInt64(listed), k: 0)
        guard listed > 0 else { return }
        let (kg, kx, ky, ka) = orders
        w.write(UInt64(kg << 12 | kx << 8 | ky << 4 | ka), bits: 4 * PackedLayout.orderBits)
        for i in 0..<listed {
            let slot = codes + 4 * i
            w.golomb4(slot[0], slot[1], slot[2], slot[3], k: orders)
        }
    }
}

extension PackedTable {
    /// The x, y and angle columns as buffers, for loops without bounds checks.
    @inline(__always) func withColumns<R>(_ body: (UnsafeBufferPointer<Int64>, UnsafeBufferPointer<Int64>,
                                                    UnsafeBufferPointer<Int64>) -> R) -> R {
        x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in angle.withUnsafeBufferPointer { a in body(x, y, a) } } }
    }
}
