import Logging
import NetProtocol
import Testing
@testable import DynRoom

/// A room's snapshots encoded by its job, as a worker runs it (docs/ARCHITECTURE.md, Rooms and threads): the
/// job asks the front nothing and writes nothing; the loop's `deliverAdvance` writes what it encoded, each
/// compact member's frame against the baseline it holds at the write (docs/PROTOCOL.md, the baseline rule).
@Suite(.timeLimit(.minutes(1))) struct RoomFrameJobTests {
    /// Records writes as lines; counts every call made while `inJob` is set (a job must make none).
    final class JobFront: RoomFront {
        var writes: [(client: Int, line: String)] = []
        var callsInJob = 0
        var inJob = false
        var queued: Set<Int> = []

        func write(_ bytes: SharedBytes, kind: WriteKind, to client: Int) {
            if inJob { callsInJob += 1 }
            for line in String(decoding: bytes.array, as: UTF8.self).split(separator: "\n") { writes.append((client, String(line))) }
        }
        func flushReplies(of seat: Seat) { if inJob { callsInJob += 1 } }
        func latestStillQueued(client: Int) -> Bool {
            if inJob { callsInJob += 1 }
            return queued.contains(client)
        }
        func ticked(_ n: UInt64) { if inJob { callsInJob += 1 } }
        func stepped(seconds: Double) { if inJob { callsInJob += 1 } }
        func skippedTicks(_ n: UInt64) { if inJob { callsInJob += 1 } }
        func sentSnapshot(bytes: Int, clients: Int) { if inJob { callsInJob += 1 } }
        /// The packed outputs written, in order (by identity: which of a batch's frames went out).
        var packedWritten: [PackedOutput] = []
        /// `encodedSnapshots` seconds by mode.
        var encoded: [Subscription.Snapshots: Double] = [:]

        func writePacked(_ packed: PackedOutput, kind: WriteKind, to client: Int) -> Int {
            packedWritten.append(packed)
            write(packed.line, kind: kind, to: client)
            return packed.line.count
        }
        func encodedSnapshots(_ mode: Subscription.Snapshots, seconds: Double) {
            if inJob { callsInJob += 1 }
            encoded[mode, default: 0] += seconds
        }

        /// The top-level fields of `client`'s writes of `type`.
        func messages(of client: Int, type: String) -> [[(String, JSONValue)]] {
            writes.filter { $0.client == client }.compactMap { write in
                guard case .object(let fields)? = try? JSONParser.parse(Array(write.line.utf8)),
                      fields.first(where: { $0.0 == "type" })?.1.string == type else { return nil }
                return fields
            }
        }
    }

    let front = JobFront()
    let room: Room
    var nowNs = MonotonicClock.nowNs

    init() {
        room = Room(name: "lab", config: RoomConfig(), log: Logger(label: "test"), front: front, scene: "gravity",
                    statePath: nil, beatStartNs: nowNs)
    }

    func seat(_ id: Int, _ mode: Subscription.Snapshots) -> Seat {
        let seat = Seat(id: id, authorized: true, serverAdmin: true)
        seat.subscription.snapshots = mode
        room.add(seat)
        room.sendWorld(to: seat)
        return seat
    }

    /// Runs jobs (as a worker would, with the front out of reach) until one produced a snapshot; returns
    /// without delivering it.
    mutating func jobWithSnapshot() {
        for _ in 0..<20 {
            nowNs += 50_000_000
            let audience = room.audience()
            front.inJob = true
            room.work(nowNs: nowNs, budgetNs: 1_000_000_000, audience: audience)
            front.inJob = false
            if room.pending.snapshot != nil { return }
            room.deliverAdvance()
        }
        Issue.record("no snapshot in 20 jobs of 50 ms")
    }

    @Test mutating func aJobEncodesEveryModeAndTheLoopOnlyWrites() throws {
        let full = seat(1, .full), compact = seat(2, .compact), packed = seat(3, .packed)
        front.writes.removeAll()
        jobWithSnapshot()
        #expect(front.callsInJob == 0, "the job called the front \(front.callsInJob) times")
        #expect(front.writes.isEmpty)
        let batch = try #require(room.pending.snapshot)
        #expect(batch.full != nil && !batch.compactFrames.isEmpty && !batch.packedFrames.isEmpty,
                "all three encodings are made by the job")
        room.deliverAdvance()
        #expect(front.messages(of: full.id, type: "snapshot").count == 1)
        #expect(front.messages(of: compact.id, type: "frame").count == 1)
        #expect(front.messages(of: packed.id, type: "packed").count == 1)
        // Each mode's encoding time reaches the front as the batch is written (the job's CPU time, not zero).
        #expect(Set(front.encoded.keys) == [.full, .compact, .packed])
        #expect(front.encoded.values.allSatisfy { $0 > 0 }, "\(front.encoded)")
    }

    /// The same for packed frames: the job encodes one frame per pair of tables the member may hold, and the
    /// write picks the frame for the pair it holds then (the very object the job made, nothing encoded again).
    @Test(arguments: [false, true]) mutating func aPackedFrameQueuedDuringTheJobIsPickedNotEncodedAgain(stillQueued: Bool) throws {
        let packed = seat(3, .packed)
        jobWithSnapshot()
        room.deliverAdvance()
        front.queued = [packed.id]
        jobWithSnapshot()
        let batch = try #require(room.pending.snapshot)
        #expect(batch.packedFrames.count == 2, "one frame per pair it may hold")
        if !stillQueued { front.queued = [] }
        room.deliverAdvance()
        // Still queued: it holds the pair it held at the job (the first); else the queued frame's (the second).
        let written = try #require(front.packedWritten.last)
        #expect(written === batch.packedFrames[stillQueued ? 0 : 1].output)
    }

    /// A compact frame still queued when the job starts may leave before the write, or not: the member gets a
    /// frame against the frame it really received in both cases.
    @Test(arguments: [false, true]) mutating func aFrameQueuedDuringTheJobDecidesTheBaselineAtTheWrite(stillQueued: Bool) throws {
        let compact = seat(2, .compact)
        jobWithSnapshot()
        room.deliverAdvance()
        let last = try #require(front.messages(of: compact.id, type: "frame").last)
        let lastTick = try #require(last.first { $0.0 == "tick" }?.1.number)
        // The last frame is still queued as the next job starts.
        front.queued = [compact.id]
        jobWithSnapshot()
        #expect(try #require(room.pending.snapshot).compactFrames.count == 2, "one frame per baseline it may hold")
        if !stillQueued { front.queued = [] }
        room.deliverAdvance()
        let next = try #require(front.messages(of: compact.id, type: "frame").last)
        let base = next.first { $0.0 == "base" }?.1
        if stillQueued {
            // It never gets the queued frame: the new one is against the frame before (here the keyframe's
            // baseline, none before it: a keyframe).
            #expect(base?.number != lastTick, "a frame against one the client never got: \(String(describing: base))")
        } else {
            #expect(base?.number == lastTick, "against the frame that left: \(String(describing: base))")
        }
    }
}
