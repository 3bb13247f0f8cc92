/// Encodes a compact `frame` line (docs/PROTOCOL.md) straight into a shareable buffer, once per distinct
/// baseline: every connection whose baseline is the same table gets the same bytes.
///
/// Guarantees: one line ending in `"\n"`, field order `type, tick, time, base, paused, held (only when true), clients,
/// bodies[[id,x,y,angle]], drags[...]` (drags exactly as in snapshots); with a baseline, only the bodies
/// whose rounded x, y or angle differ from it are listed (and bodies it lacks); without one, every body.
public enum FrameEncoder {
    public static func encode(_ current: PoseTable, base: PoseTable?, time: Double, paused: Bool, held: Bool = false,
                              clients: Int, drags: [DragInfo]) -> SharedBytes {
        encode(current, base: base, baseTick: base?.tick, time: time, paused: paused, held: held, clients: clients,
               drags: drags)
    }

    /// Writes a decoded `Frame` back (its listed bodies, its `base`), for tests and tools.
    static func encode(_ frame: Frame) -> SharedBytes {
        let table = PoseTable(tick: frame.tick, ids: frame.bodies.map(\.id), x: frame.bodies.map(\.x),
                              y: frame.bodies.map(\.y), angle: frame.bodies.map(\.angle))
        return encode(table, base: nil, baseTick: frame.base, time: frame.time, paused: frame.paused, held: frame.held,
                      clients: frame.clients, drags: frame.drags)
    }

    private static func encode(_ current: PoseTable, base: PoseTable?, baseTick: UInt64?, time: Double, paused: Bool,
                               held: Bool, clients: Int, drags: [DragInfo]) -> SharedBytes {
        let bound = 160 + 4 * ByteCursor.maxNumberBytes + current.count * (5 + 4 * 20)
            + SnapshotEncoder.worstCaseDragBytes(drags)
        return SharedBytes(capacity: bound) { buffer in
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var w = ByteCursor(start)
            w.raw("{\"type\":\"frame\",\"tick\":")
            w.digits(current.tick)
            w.raw(",\"time\":")
            w.rounded(time, decimals: 3)
            w.raw(",\"base\":")
            if let baseTick { w.digits(baseTick) } else { w.raw("null") }
            w.raw(paused ? ",\"paused\":true" : ",\"paused\":false")
            if held { w.raw(",\"held\":true") }
            w.raw(",\"clients\":")
            w.signed(clients)
            w.raw(",\"bodies\":[")
            writeBodies(current, base: base, into: &w)
            w.raw("],\"drags\":")
            SnapshotEncoder.writeDrags(drags, into: &w)
            w.raw("}\n")
            return w.position - start
        }
    }

    private static func writeBodies(_ current: PoseTable, base: PoseTable?, into w: inout ByteCursor) {
        var first = true
        // Between scenes the body set and its order do not change, so the baseline is read by index; a
        // baseline of another shape (never sent by the server, but cheap to allow) is read by id.
        let sameOrder = base.map { $0.ids == current.ids } ?? false
        let byID: [Int: Int] = (base == nil || sameOrder) ? [:]
            : Dictionary(base!.ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
        for i in 0..<current.count {
            if let base {
                let j = sameOrder ? i : byID[current.ids[i]]
                if let j, base.x[j] == current.x[i], base.y[j] == current.y[i], base.angle[j] == current.angle[i] {
                    continue
                }
            }
            if !first { w.byte(UInt8(ascii: ",")) }
            first = false
            w.byte(UInt8(ascii: "["))
            w.signed(current.ids[i])
            w.byte(UInt8(ascii: ","))
            w.int64(current.x[i])
            w.byte(UInt8(ascii: ","))
            w.int64(current.y[i])
            w.byte(UInt8(ascii: ","))
            w.int64(current.angle[i])
            w.byte(UInt8(ascii: "]"))
        }
    }
}
