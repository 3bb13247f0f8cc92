import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The fixed-step loop runs on the monotonic clock: the tick count follows wall time, it does not drift.
    @Suite(.serialized)
    struct TickRateTests {
        @Test(.timeLimit(.minutes(15))) func keepAliveSnapshotsOfARestingWorldComeEveryTickHzTicks() throws {
            // An empty world rests: after the paused snapshot, one keep-alive per tick_hz ticks. Waiting for
            // them (no sleeping) spans a known number of ticks; under `make soak` the wall time they took
            // must match it (the clock does not drift), in `make test` only the tick spacing is checked.
            let server = try ServerProcess(["--scene", "empty", "--tick-hz", "60"])
            let client = try server.connect()
            _ = try #require(client.join().snapshot)
            let clock = ContinuousClock()
            var arrivals: [(tick: UInt64, at: ContinuousClock.Instant)] = []
            while arrivals.count < 5, let snapshot = client.nextSnapshot(timeout: 5, where: { $0.paused }) {
                arrivals.append((snapshot.tick, clock.now))
            }
            #expect(arrivals.count == 5, "keep-alives kept coming")
            let steps = zip(arrivals, arrivals.dropFirst()).map { $1.tick - $0.tick }
            #expect(steps.dropFirst().allSatisfy { $0 == 60 }, "one keep-alive per 60 ticks: \(steps)")
            if Reliability.measuresTiming, let first = arrivals.dropFirst().first, let last = arrivals.last {
                let span = last.at - first.at
                let elapsed = Double(span.components.seconds) + Double(span.components.attoseconds) * 1e-18
                let expected = Double(last.tick - first.tick) / 60
                #expect(abs(elapsed - expected) <= 3.0 / 60 + 0.02, "ticks \(last.tick - first.tick) took \(elapsed) s")
            }
            withExtendedLifetime(server) {}
        }
    }
}
