/// Decodes packed frames on the client side and rebuilds the full state (docs/PROTOCOL.md, "packed").
///
/// Guarantees: applying the frames of one connection in order yields, for each, the ids, order, positions
/// (1/16 pt) and angles (2^16 steps per turn) the server quantized for that tick, with its time, flags,
/// clients and drags. Hostile or broken bytes throw `PackedDecodeError` and change nothing: never a trap,
/// an allocation larger than the input allows, or a loop longer than the input; a delta before any
/// keyframe is refused the same way (send `subscribe` with `snapshots: packed` to get a keyframe).
public struct PackedApplier: Sendable {
    /// The baseline: the table of the last frame applied.
    public private(set) var base: PackedTable?
    /// The table `base` was decoded against (nil when it came from a keyframe).
    private var previous: PackedTable?

    public init() {}

    /// The tick of the last frame applied; nil before the first keyframe.
    public var tick: UInt64? { base?.tick }

    /// Forgets the baseline (a new connection); the next frame must be a keyframe.
    public mutating func reset() { self = PackedApplier() }

    /// Applies one frame and returns the whole state it describes, as a snapshot.
    public mutating func apply(_ bytes: [UInt8]) throws(PackedDecodeError) -> Snapshot {
        var r = PackedBitReader(bytes)
        let flags = try r.read(bits: 8)
        guard flags & PackedLayout.reservedBits == 0 else { throw PackedDecodeError("reserved bits of the first byte are set") }
        let keyframe = flags & PackedLayout.keyframeFlag != 0
        let tick: UInt64, timeMs: Int64
        if keyframe {
            tick = try r.golomb(k: 0)
            timeMs = try r.signedGolomb(k: 0)
        } else {
            guard let base else { throw PackedDecodeError("a delta frame arrived before any keyframe") }
            tick = base.tick &+ (try r.golomb(k: 0))
            timeMs = base.timeMs &+ (try r.signedGolomb(k: PackedLayout.timeOrder))
        }
        let clientCount = try r.golomb(k: 0)
        guard clientCount <= 1 << 31 else { throw PackedDecodeError("the client count is out of range") }
        let clients = Int(clientCount)
        let drags = flags & PackedLayout.dragsFlag != 0 ? try PackedApplier.readDrags(&r) : []
        let table: PackedTable
        if keyframe {
            table = try PackedApplier.readAll(&r, tick: tick, timeMs: timeMs)
        } else {
            table = try PackedApplier.readChanges(&r, tick: tick, timeMs: timeMs, base: base!, previous: previous)
        }
        try r.expectEnd()
        previous = keyframe ? nil : base
        base = table
        var snapshot = Snapshot(tick: tick, time: Double(timeMs) / 1000, paused: flags & PackedLayout.pausedFlag != 0,
                                clients: clients, bodies: table.bodies(), drags: drags)
        snapshot.held = flags & PackedLayout.heldFlag != 0
        return snapshot
    }

    private static func readDrags(_ r: inout PackedBitReader) throws(PackedDecodeError) -> [DragInfo] {
        let count = try r.golomb(k: 0)
        // A drag's codes take at least 39 bits, so a count beyond that is a lie.
        guard count <= UInt64(r.remainingBits / 39) else { throw PackedDecodeError("more drags than the frame can hold") }
        var drags: [DragInfo] = []
        for _ in 0..<Int(count) {
            let client = Int(truncatingIfNeeded: try r.signedGolomb(k: 0))
            let length = try r.golomb(k: 0)
            guard length <= UInt64(r.remainingBits / 8) else { throw PackedDecodeError("a drag's name runs past the end") }
            var name: [UInt8] = []
            name.reserveCapacity(Int(length))
            for _ in 0..<Int(length) { name.append(UInt8(try r.read(bits: 8))) }
            guard let text = String(validating: name, as: UTF8.self) else {
                throw PackedDecodeError("a drag's name is not UTF-8")
            }
            let body = Int(truncatingIfNeeded: try r.signedGolomb(k: 0))
            var values: [Double] = []
            for _ in 0..<4 {
                let centi = try r.signedGolomb(k: PackedLayout.dragOrder)
                guard centi.magnitude <= 1 << 40 else { throw PackedDecodeError("a drag's position is out of range") }
                values.append(Double(centi) / 100)
            }
            drags.append(DragInfo(client: client, name: text, body: body, x: values[0], y: values[1],
                                  offset: Point(values[2], values[3])))
        }
        return drags
    }

    private static func readOrders(_ r: inout PackedBitReader) throws(PackedDecodeError) -> [Int] {
        var orders: [Int] = []
        for _ in 0..<4 { orders.append(Int(try r.read(bits: PackedLayout.orderBits))) }
        return orders
    }

    private static func readAll(_ r: inout PackedBitReader, tick: UInt64, timeMs: Int64) throws(PackedDecodeError) -> PackedTable {
        let count = try r.golomb(k: 0)
        // Every body takes at least four bits.
        guard count <= UInt64(r.remainingBits / 4) else { throw PackedDecodeError("more bodies than the frame can hold") }
        var ids: [Int] = [], x: [Int64] = [], y: [Int64] = [], angle: [Int64] = []
        if count > 0 {
            let orders = try readOrders(&r)
            var previousID: Int64 = 0
            for _ in 0..<Int(count) {
                let id = previousID &+ 1 &+ (try r.signedGolomb(k: orders[0]))
                ids.append(Int(truncatingIfNeeded: id))
                x.append(try r.signedGolomb(k: orders[1]))
                y.append(try r.signedGolomb(k: orders[2]))
                angle.append(try r.signedGolomb(k: orders[3]))
                previousID = id
            }
        }
        return PackedTable(tick: tick, timeMs: timeMs, ids: ids, x: x, y: y, angle: angle)
    }

    private static func readChanges(_ r: inout PackedBitReader, tick: UInt64, timeMs: Int64, base: PackedTable,
                                    previous: PackedTable?) throws(PackedDecodeError) -> PackedTable {
        let count = try r.golomb(k: 0)
        guard count <= UInt64(base.count) else { throw PackedDecodeError("a delta lists more bodies than the baseline has") }
        let predictor = PackedPredictor(tick: tick, base: base, previous: previous)
        var x = base.ids.indices.map(predictor.x)
        var y = base.ids.indices.map(predictor.y)
        var angle = base.ids.indices.map(predictor.angle)
        if count > 0 {
            let orders = try readOrders(&r)
            var next = 0
            for _ in 0..<Int(count) {
                let gap = try r.golomb(k: orders[0])
                guard gap < UInt64(base.count - next) else { throw PackedDecodeError("a body index is past the baseline's last body") }
                let i = next + Int(gap)
                x[i] = x[i] &+ (try r.signedGolomb(k: orders[1]))
                y[i] = y[i] &+ (try r.signedGolomb(k: orders[2]))
                angle[i] = angle[i] &+ (try r.signedGolomb(k: orders[3]))
                next = i + 1
            }
        }
        return PackedTable(tick: tick, timeMs: timeMs, ids: base.ids, x: x, y: y, angle: angle)
    }
}
