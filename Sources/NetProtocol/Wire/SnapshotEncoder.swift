/// Encodes the per-tick `snapshot` line once, for every client's write to share.
///
/// Guarantees: output is one line ending in `"\n"`, field order
/// `type, tick, time, paused, clients, bodies[{id,x,y,angle,vx,vy,av}], drags[{client,name,body,x,y,offset{x,y}}]`;
/// positions, velocities and drag points are rounded to 0.01, `angle`, `av` and `time` to 0.001, trailing
/// zeros trimmed, integral values without `.0`, NaN and infinity written as `0`. Numbers are formatted with
/// integer arithmetic, and the byte buffer is reused between calls: the only allocation per call is the
/// returned array's storage (when the previous result is still held by a caller).
public struct SnapshotEncoder {
    private var writer = JSONWriter(capacity: 4096)

    public init() {}

    public mutating func encode(tick: UInt64, time: Double, paused: Bool, clients: Int,
                                bodies: UnsafeBufferPointer<BodyState>, drags: [DragInfo]) -> [UInt8] {
        writer.reset()
        SnapshotEncoder.write(tick: tick, time: time, paused: paused, clients: clients, bodies: bodies, drags: drags,
                              into: &writer)
        writer.newline()
        return writer.bytes
    }

    /// Writes the snapshot object (without the newline); shared with `ServerMessage.snapshot`.
    static func write(tick: UInt64, time: Double, paused: Bool, clients: Int, bodies: UnsafeBufferPointer<BodyState>,
                      drags: [DragInfo], into w: inout JSONWriter) {
        w.append(raw: "{\"type\":\"snapshot\",\"tick\":")
        w.appendDigits(tick)
        w.append(raw: ",\"time\":")
        w.appendRounded(time, decimals: 3)
        w.append(raw: paused ? ",\"paused\":true,\"clients\":" : ",\"paused\":false,\"clients\":")
        w.appendSigned(clients)
        w.append(raw: ",\"bodies\":[")
        for index in bodies.indices {
            let body = bodies[index]
            w.append(raw: index == 0 ? "{\"id\":" : ",{\"id\":")
            w.appendSigned(body.id)
            w.append(raw: ",\"x\":")
            w.appendRounded(body.x, decimals: 2)
            w.append(raw: ",\"y\":")
            w.appendRounded(body.y, decimals: 2)
            w.append(raw: ",\"angle\":")
            w.appendRounded(body.angle, decimals: 3)
            w.append(raw: ",\"vx\":")
            w.appendRounded(body.vx, decimals: 2)
            w.append(raw: ",\"vy\":")
            w.appendRounded(body.vy, decimals: 2)
            w.append(raw: ",\"av\":")
            w.appendRounded(body.av, decimals: 3)
            w.append(raw: "}")
        }
        w.append(raw: "],\"drags\":[")
        for (index, drag) in drags.enumerated() {
            w.append(raw: index == 0 ? "{\"client\":" : ",{\"client\":")
            w.appendSigned(drag.client)
            w.append(raw: ",\"name\":")
            w.appendQuoted(drag.name)
            w.append(raw: ",\"body\":")
            w.appendSigned(drag.body)
            w.append(raw: ",\"x\":")
            w.appendRounded(drag.x, decimals: 2)
            w.append(raw: ",\"y\":")
            w.appendRounded(drag.y, decimals: 2)
            w.append(raw: ",\"offset\":{\"x\":")
            w.appendRounded(drag.offset.x, decimals: 2)
            w.append(raw: ",\"y\":")
            w.appendRounded(drag.offset.y, decimals: 2)
            w.append(raw: "}}")
        }
        w.append(raw: "]}")
        w.markValueWritten()
    }
}
