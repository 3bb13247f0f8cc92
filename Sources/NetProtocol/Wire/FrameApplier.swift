/// Rebuilds full state from compact frames on the client side (docs/PROTOCOL.md, the baseline rule).
///
/// Guarantees: after applying the frames of a connection in order, `apply` returns the same ids, order,
/// positions and angles that a full `snapshot` of the same tick says (velocities are 0: frames carry none);
/// a frame whose `base` is not the tick of the last frame applied, or that lists a body the baseline does
/// not have, is refused with an error and changes nothing (send `subscribe` with `snapshots: compact` to get
/// a keyframe again).
public struct FrameApplier: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        /// The frame is relative to a tick this applier does not hold (nil: it holds nothing yet).
        case baseMismatch(expected: UInt64?, got: UInt64)
        /// A delta frame lists a body its baseline does not have.
        case unknownBody(Int)
    }

    /// The tick of the last frame applied; nil before the first keyframe.
    public private(set) var tick: UInt64?
    private var ids: [Int] = []
    private var x: [Int64] = []
    private var y: [Int64] = []
    private var angle: [Int64] = []
    private var index: [Int: Int] = [:]

    public init() {}

    /// Forgets the baseline (a new connection); the next frame must be a keyframe.
    public mutating func reset() { self = FrameApplier() }

    /// Applies one frame and returns the whole state it describes, as a snapshot.
    public mutating func apply(_ frame: Frame) throws(Failure) -> Snapshot {
        if let base = frame.base {
            guard base == tick else { throw .baseMismatch(expected: tick, got: base) }
            var slots: [Int] = []
            slots.reserveCapacity(frame.bodies.count)
            for body in frame.bodies {
                guard let slot = index[body.id] else { throw .unknownBody(body.id) }
                slots.append(slot)
            }
            for (slot, body) in zip(slots, frame.bodies) {
                x[slot] = body.x
                y[slot] = body.y
                angle[slot] = body.angle
            }
        } else {
            ids = frame.bodies.map(\.id)
            x = frame.bodies.map(\.x)
            y = frame.bodies.map(\.y)
            angle = frame.bodies.map(\.angle)
            index = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
        }
        tick = frame.tick
        var snapshot = Snapshot(tick: frame.tick, time: frame.time, paused: frame.paused, clients: frame.clients,
                                bodies: bodies(), drags: frame.drags)
        snapshot.held = frame.held
        return snapshot
    }

    /// The poses held now, in the keyframe's order.
    public func bodies() -> [BodyState] {
        ids.indices.map { i in
            BodyState(id: ids[i], x: Double(x[i]) / 100, y: Double(y[i]) / 100, angle: Double(angle[i]) / 1000)
        }
    }
}
