import Dynamics
import Logging
import NetProtocol
import Testing
@testable import DynRoom

/// The server's rooms step big worlds over its shared `StepWorkers` (docs/ENGINE.md, "Parallel step";
/// docs/ARCHITECTURE.md, Rooms and threads), small ones on their own thread, with the same result either way.
@Suite(.timeLimit(.minutes(1))) struct RoomParallelStepTests {
    final class QuietFront: RoomFront {
        func write(_ bytes: SharedBytes, kind: WriteKind, to client: Int) {}
        func flushReplies(of seat: Seat) {}
        func latestStillQueued(client: Int) -> Bool { false }
        func ticked(_ n: UInt64) {}
        func stepped(seconds: Double) {}
        func skippedTicks(_ n: UInt64) {}
        func sentSnapshot(bytes: Int, clients: Int) {}
    }

    /// A room of `items` balls dropped in a grid, stepped `ticks` held steps; returns its state hash.
    func steppedHash(items: Int, ticks: Int, workers: StepWorkers?) throws -> UInt64 {
        var config = RoomConfig()
        config.held = true
        config.stepWorkers = workers
        let front = QuietFront()
        let room = Room(name: "big", config: config, log: Logger(label: "test"), front: front, scene: "empty",
                        statePath: nil, beatStartNs: MonotonicClock.nowNs)
        for k in 0..<items {
            _ = try room.world.spawn(shape: .ellipse, width: 8, height: 8, x: 20 + Double(k % 40) * 18,
                                     y: 20 + Double(k / 40) * 14, angle: nil, vx: nil, vy: nil, patch: PropertyPatch())
        }
        _ = try room.world.step(ticks: ticks) {}
        return room.world.animator.stateHash()
    }

    @Test func aBigRoomUsesTheSharedWorkersAndGetsTheSameWorld() throws {
        let workers = StepWorkers(threads: 2)
        let parallel = try steppedHash(items: 400, ticks: 20, workers: workers)
        #expect(workers.parallelStages > 0, "a room of 400 awake items splits its stages over the workers")
        #expect(parallel == (try steppedHash(items: 400, ticks: 20, workers: nil)), "bit-identical to one thread")
    }

    @Test func aSmallRoomStepsAlone() throws {
        let workers = StepWorkers(threads: 2)
        _ = try steppedHash(items: 50, ticks: 20, workers: workers)
        #expect(workers.parallelStages == 0)
    }
}
