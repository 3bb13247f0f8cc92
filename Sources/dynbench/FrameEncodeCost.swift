import Foundation
import NetProtocol

/// What one frame costs to encode in each mode along the server's own path (`Room.makeSnapshotBatch`): from
/// the tick's body states, as the world fills them, to the bytes handed to the transport, each frame against
/// the one before it (a client that keeps up). Each mode's sequence runs in one non-inlined function, so
/// `valgrind --tool=callgrind --toggle-collect='*encodeCompactSequence*'` (or `*encodePackedSequence*`)
/// counts its instructions alone (docs/ARCHITECTURE.md, packed frames).
struct FrameEncodeCost {
    enum Mode: String, CaseIterable {
        case compact
        /// A `packed` line (base64) for TCP.
        case packedTCP = "packed_tcp"
        /// One binary WebSocket message.
        case packedWS = "packed_ws"
    }

    /// The recorded states, in order.
    let frames: [Snapshot]

    /// Encodes the whole sequence `rounds` times in `mode`; returns the bytes made (so nothing is optimized away).
    func run(_ mode: Mode, rounds: Int) -> Int {
        switch mode {
        case .compact: return encodeCompactSequence(rounds: rounds)
        case .packedTCP: return encodePackedSequence(rounds: rounds, webSocket: false)
        case .packedWS: return encodePackedSequence(rounds: rounds, webSocket: true)
        }
    }

    /// Frames encoded by one `run` of `rounds` rounds (the first frame of each round is a keyframe).
    func frameCount(rounds: Int) -> Int { rounds * frames.count }

    @inline(never) func encodeCompactSequence(rounds: Int) -> Int {
        var bytes = 0
        for _ in 0..<rounds {
            var base: PoseTable?
            for s in frames {
                let current = s.bodies.withUnsafeBufferPointer { PoseTable(tick: s.tick, bodies: $0) }
                let frame = FrameEncoder.encode(current, base: base, time: s.time, paused: s.paused, held: false,
                                                clients: s.clients, drags: s.drags)
                bytes &+= frame.count
                base = current
            }
        }
        return bytes
    }

    @inline(never) func encodePackedSequence(rounds: Int, webSocket: Bool) -> Int {
        var bytes = 0
        // The room's encoder, kept across frames as a room keeps it.
        let encoder = PackedFrameEncoder()
        for _ in 0..<rounds {
            var held: (table: PackedTable, base: PackedTable?)?
            for s in frames {
                let current = s.bodies.withUnsafeBufferPointer { encoder.table(tick: s.tick, time: s.time, bodies: $0) }
                let base = PackedEncoder.deltaBase(current, held?.table)
                let output = encoder.output(current, checkedBase: base, previous: base == nil ? nil : held?.base,
                                            paused: s.paused, held: false, clients: s.clients, drags: s.drags,
                                            line: !webSocket, webSocket: webSocket)
                bytes &+= webSocket ? output.webSocketFrame.count : output.line.count
                held = (current, base)
            }
        }
        return bytes
    }

    /// A small frame: the default scene's 16 bodies of which one moves (a pendulum's bob), 60 frames.
    static func smallFrames(from first: Snapshot?) -> [Snapshot] {
        var bodies = first?.bodies ?? (1...16).map { BodyState(id: $0, x: Double($0) * 40, y: 300, angle: 0) }
        return (0..<60).map { i in
            let phase = Double(i) / 30
            bodies[0].x = 400 + 120 * sin(phase * 3)
            bodies[0].y = 200 + 40 * cos(phase * 3)
            bodies[0].angle = phase
            return Snapshot(tick: UInt64(2 * i + 2), time: Double(i) / 30, paused: false, clients: 1, bodies: bodies)
        }
    }
}
