import Logging
import NetProtocol
import Testing
@testable import DynRoom

/// A room driven with no socket and no loop (docs/ARCHITECTURE.md, Rooms and threads): what it writes is read
/// back from a front that only records.
@Suite(.timeLimit(.minutes(1))) struct RoomJobTests {
    /// Records every write, in order, as its client id and the message's type.
    final class RecordingFront: RoomFront {
        var writes: [(client: Int, line: String)] = []
        var ticks: UInt64 = 0

        func write(_ bytes: SharedBytes, kind: WriteKind, to client: Int) {
            for line in String(decoding: bytes.array, as: UTF8.self).split(separator: "\n") {
                writes.append((client, String(line)))
            }
        }

        func flushReplies(of seat: Seat) {
            guard !seat.replies.isEmpty else { return }
            write(SharedBytes(seat.replies), kind: .reliable, to: seat.id)
            seat.replies.removeAll()
        }

        func latestStillQueued(client: Int) -> Bool { false }
        func ticked(_ n: UInt64) { ticks += n }
        func stepped(seconds: Double) {}
        func skippedTicks(_ n: UInt64) {}
        func sentSnapshot(bytes: Int, clients: Int) {}

        func types(of client: Int) -> [String] {
            writes.filter { $0.client == client }.compactMap { write in
                guard case .object(let fields)? = try? JSONParser.parse(Array(write.line.utf8)) else { return nil }
                return fields.first { $0.0 == "type" }?.1.string
            }
        }
    }

    private func heldRoom(_ front: RecordingFront) -> (Room, Seat) {
        var config = RoomConfig()
        config.held = true
        let room = Room(name: "lab", config: config, log: Logger(label: "test"), front: front, scene: "gravity",
                        statePath: nil, beatStartNs: MonotonicClock.nowNs)
        let seat = Seat(id: 7, authorized: true, serverAdmin: true)
        room.add(seat)
        room.sendWorld(to: seat)
        front.writes.removeAll()
        return (room, seat)
    }

    /// `step 50` is accepted without a step or an answer, runs in jobs of at most `budget` each, and is answered
    /// only when done: the snapshot of the last tick, then the ack; a `ping` after it waits for it.
    @Test func aLongStepRunsInJobsAndIsAnsweredWhenDone() throws {
        let front = RecordingFront()
        let (room, seat) = heldRoom(front)
        let startTick = room.tick
        room.execute(ClientMessage(id: .number("1"), .step(ticks: 50)), from: seat)
        #expect(room.longStep?.remaining == 50)
        #expect(room.tick == startTick, "accepting a step runs none of it")
        #expect(front.writes.isEmpty && seat.replies.isEmpty, "nothing is answered before the steps are done")
        var jobs = 0
        while room.longStep != nil, jobs < 1000 {
            // A zero budget: each job runs exactly one step and yields.
            room.work(nowNs: MonotonicClock.nowNs, budgetNs: 0, audience: room.audience())
            room.deliverAdvance()
            room.finishLongStepIfDone()
            jobs += 1
        }
        #expect(jobs == 50, "one step per job with no budget")
        #expect(room.tick == startTick + 50)
        #expect(front.ticks == 50)
        #expect(front.types(of: seat.id) == ["snapshot", "ack"], "the snapshot of the last tick, then the ack")
        #expect(front.writes.last?.line.contains(#""id":1"#) == true)
        room.execute(ClientMessage(id: .number("2"), .ping(t: nil)), from: seat)
        front.flushReplies(of: seat)
        #expect(front.writes.last?.line.contains(#""tick":\#(startTick + 50)"#) == true, "the pong carries the tick after the step")
    }

    /// A save job encodes the state once and hands the bytes back (the fleet's copy), and a room that did not
    /// change is not encoded again.
    @Test func aSaveJobHandsBackTheEncodedStateOnce() throws {
        let front = RecordingFront()
        let (room, _) = heldRoom(front)
        room.saveRequest = SaveRequest(reason: "test", always: false, wantsBytes: true)
        room.work(nowNs: MonotonicClock.nowNs, budgetNs: 1_000_000, audience: room.audience())
        let saved = try #require(room.savedState)
        #expect(saved.tick == room.tick && saved.bytes.count > 100)
        #expect(room.saveRequest == nil)
        room.savedState = nil
        room.saveRequest = SaveRequest(reason: "again", always: false, wantsBytes: true)
        room.work(nowNs: MonotonicClock.nowNs, budgetNs: 1_000_000, audience: room.audience())
        #expect(room.savedState == nil, "nothing changed since the last save")
    }
}
