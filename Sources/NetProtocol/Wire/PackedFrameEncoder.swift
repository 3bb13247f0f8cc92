/// The packed encoder a room keeps across frames (docs/ARCHITECTURE.md, packed frames): it quantizes each
/// tick's states once into a table from its own pool, and encodes every frame of that tick with the scratch
/// and the output buffer it keeps, so that in the steady state a frame allocates nothing but the bytes handed
/// to the transport (`PackedOutput`).
///
/// Guarantees: `encode` writes exactly the bytes `PackedEncoder.encode` specifies (it is its implementation);
/// a table `table` returns is refilled later only once nothing but the pool refers to it, so a baseline a
/// connection holds never changes. Not thread-safe: one room's encoder is used by one thread at a time (the
/// worker running the room's job, or the loop thread between jobs), so its state needs no dynamic exclusivity
/// checks (`@exclusivity(unchecked)`: they cost more than a small frame's encoding).
public final class PackedFrameEncoder: @unchecked Sendable {
    /// Tables handed out; one that only the pool holds is refilled instead of allocated.
    @exclusivity(unchecked) private var pool: [PackedTable] = []
    /// Tables kept for reuse at most: a connection holds two (its baseline and the one before), a slow one
    /// a queued frame's too, so a few cover the usual room; past that, tables are not pooled.
    private static let poolLimit = 16
    /// The ids of the last table made: shared (not copied) by the next table while the body set is the same,
    /// so `PackedEncoder.deltaBase` compares the same array buffer (at once) instead of every id.
    @exclusivity(unchecked) private var lastIDs: [Int] = []
    @exclusivity(unchecked) private var codes: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var codesCapacity: Int
    private let histograms: UnsafeMutableBufferPointer<Int>
    @exclusivity(unchecked) private var output: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var outputCapacity: Int

    public init() {
        codesCapacity = 64
        codes = .allocate(capacity: codesCapacity)
        histograms = .allocate(capacity: BodyCodes.histogramSize)
        histograms.initialize(repeating: 0)
        outputCapacity = 256
        output = .allocate(capacity: outputCapacity)
    }

    deinit {
        codes.deallocate()
        histograms.deallocate()
        output.deallocate()
    }

    /// The quantized poses of `bodies` at `tick` and world time `time` (seconds): the same integers as
    /// `PackedTable(PoseTable(tick:bodies:), time:)`, in a table from the pool when one is free.
    public func table(tick: UInt64, time: Double, bodies: UnsafeBufferPointer<BodyState>) -> PackedTable {
        if !sameIDs(bodies) { lastIDs = bodies.map(\.id) }
        for i in pool.indices where isKnownUniquelyReferenced(&pool[i]) {
            pool[i].refill(tick: tick, time: time, ids: lastIDs, bodies: bodies)
            return pool[i]
        }
        let table = PackedTable(tick: 0, timeMs: 0, ids: [], x: [], y: [], angle: [])
        table.refill(tick: tick, time: time, ids: lastIDs, bodies: bodies)
        if pool.count < Self.poolLimit { pool.append(table) }
        return table
    }

    private func sameIDs(_ bodies: UnsafeBufferPointer<BodyState>) -> Bool {
        guard lastIDs.count == bodies.count else { return false }
        return lastIDs.withUnsafeBufferPointer { ids in
            for i in 0..<ids.count where ids[i] != bodies[i].id { return false }
            return true
        }
    }

    /// The packed frame of `current` against `base` (accepted by `PackedEncoder.deltaBase`, or nil for a
    /// keyframe) and `previous` (`PackedEncoder.encode`); the bytes stay valid until the next call.
    public func encode(_ current: PackedTable, checkedBase base: PackedTable?, previous: PackedTable?, paused: Bool,
                       held: Bool, clients: Int, drags: [DragInfo]) -> UnsafeBufferPointer<UInt8> {
        let needed = 4 * current.count + 4
        if needed > codesCapacity {
            codes.deallocate()
            codesCapacity = max(needed, 2 * codesCapacity)
            codes = .allocate(capacity: codesCapacity)
        }
        let count = PackedEncoder.write(current, checkedBase: base, previous: previous, paused: paused, held: held,
                                        clients: clients, drags: drags, codes: codes, histograms: histograms) { bits in
            let bytes = PackedBitSink.capacity(bits: bits)
            if bytes > outputCapacity {
                output.deallocate()
                outputCapacity = max(bytes, 2 * outputCapacity)
                output = .allocate(capacity: outputCapacity)
            }
            return PackedBitSink(UnsafeMutableBufferPointer(start: output, count: outputCapacity))
        }
        return UnsafeBufferPointer(start: output, count: count)
    }
}
