/// Encodes the per-tick `snapshot` line once, for every client's write to share.
///
/// Guarantees: output is one line ending in `"\n"`, field order
/// `type, tick, time, paused, held (only when true), clients, bodies[{id,x,y,angle,vx,vy,av}], drags[{client,name,body,x,y,offset{x,y}}]`;
/// positions, velocities and drag points are rounded to 0.01, `angle`, `av` and `time` to 0.001, trailing
/// zeros trimmed, integral values without `.0`, NaN and infinity written as `0` and counted
/// (`NonFiniteValues`, the server's `dyn_nonfinite_values_total`). Numbers are formatted with
/// integer arithmetic into a scratch buffer sized for the worst case and reused between calls, so the only
/// allocation per call is the returned array.
public struct SnapshotEncoder {
    private var scratch: [UInt8] = []

    public init() {}

    public mutating func encode(tick: UInt64, time: Double, paused: Bool, held: Bool = false, clients: Int,
                                bodies: UnsafeBufferPointer<BodyState>, drags: [DragInfo]) -> [UInt8] {
        let bound = SnapshotEncoder.worstCaseBytes(bodies: bodies.count, drags: drags)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        return scratch.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return [] }
            var cursor = ByteCursor(start)
            SnapshotEncoder.write(tick: tick, time: time, paused: paused, held: held, clients: clients, bodies: bodies,
                                  drags: drags, into: &cursor)
            cursor.byte(UInt8(ascii: "\n"))
            return Array(UnsafeBufferPointer(start: start, count: cursor.position - start))
        }
    }

    /// Encodes the line straight into a shareable buffer sized for the worst case: no scratch copy, no array.
    public static func encodeShared(tick: UInt64, time: Double, paused: Bool, held: Bool = false, clients: Int,
                                    bodies: UnsafeBufferPointer<BodyState>, drags: [DragInfo]) -> SharedBytes {
        SharedBytes(capacity: worstCaseBytes(bodies: bodies.count, drags: drags)) { buffer in
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var cursor = ByteCursor(start)
            write(tick: tick, time: time, paused: paused, held: held, clients: clients, bodies: bodies, drags: drags,
                  into: &cursor)
            cursor.byte(UInt8(ascii: "\n"))
            return cursor.position - start
        }
    }

    /// An upper bound of the line's length: every number at its longest, every name byte escaped.
    private static func worstCaseBytes(bodies: Int, drags: [DragInfo]) -> Int {
        let number = ByteCursor.maxNumberBytes
        let perBody = 46 + 7 * number
        return 128 + 4 * number + bodies * perBody + worstCaseDragBytes(drags)
    }

    /// An upper bound of the `drags` array's length.
    static func worstCaseDragBytes(_ drags: [DragInfo]) -> Int {
        let perDrag = 64 + 6 * ByteCursor.maxNumberBytes
        return 2 + drags.count * perDrag + drags.reduce(0) { $0 + 6 * $1.name.utf8.count + 2 }
    }

    private static func write(tick: UInt64, time: Double, paused: Bool, held: Bool, clients: Int,
                              bodies: UnsafeBufferPointer<BodyState>, drags: [DragInfo], into w: inout ByteCursor) {
        w.raw("{\"type\":\"snapshot\",\"tick\":")
        w.digits(tick)
        w.raw(",\"time\":")
        w.rounded(time, decimals: 3)
        w.raw(paused ? ",\"paused\":true" : ",\"paused\":false")
        if held { w.raw(",\"held\":true") }
        w.raw(",\"clients\":")
        w.signed(clients)
        w.raw(",\"bodies\":[")
        for index in bodies.indices {
            let body = bodies[index]
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"id\":")
            w.signed(body.id)
            w.raw(",\"x\":")
            w.rounded(body.x, decimals: 2)
            w.raw(",\"y\":")
            w.rounded(body.y, decimals: 2)
            w.raw(",\"angle\":")
            w.rounded(body.angle, decimals: 3)
            w.raw(",\"vx\":")
            w.rounded(body.vx, decimals: 2)
            w.raw(",\"vy\":")
            w.rounded(body.vy, decimals: 2)
            w.raw(",\"av\":")
            w.rounded(body.av, decimals: 3)
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("],\"drags\":")
        writeDrags(drags, into: &w)
        w.byte(UInt8(ascii: "}"))
    }

    /// Writes the `drags` array, shared by snapshots and frames.
    static func writeDrags(_ drags: [DragInfo], into w: inout ByteCursor) {
        w.byte(UInt8(ascii: "["))
        for (index, drag) in drags.enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"client\":")
            w.signed(drag.client)
            w.raw(",\"name\":")
            w.quoted(drag.name)
            w.raw(",\"body\":")
            w.signed(drag.body)
            w.raw(",\"x\":")
            w.rounded(drag.x, decimals: 2)
            w.raw(",\"y\":")
            w.rounded(drag.y, decimals: 2)
            w.raw(",\"offset\":{\"x\":")
            w.rounded(drag.offset.x, decimals: 2)
            w.raw(",\"y\":")
            w.rounded(drag.offset.y, decimals: 2)
            w.raw("}}")
        }
        w.byte(UInt8(ascii: "]"))
    }
}
