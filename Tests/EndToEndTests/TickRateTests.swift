import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The fixed-step loop runs on the monotonic clock: the tick count follows wall time, it does not drift.
    @Suite(.serialized)
    struct TickRateTests {
        @Test func tickCountFollowsWallTimeAtTickHz() throws {
            // An empty world: steps cost nothing, so this measures the clock, not how fast a debug build
            // steps physics on a loaded machine.
            let server = try ServerProcess(["--scene", "empty", "--tick-hz", "60"])
            let client = try server.connect()
            _ = client.join()
            let clock = ContinuousClock()
            let t0 = clock.now
            let first = try #require(try client.currentTick())
            Thread.sleep(forTimeInterval: 4)
            let t1 = clock.now
            let second = try #require(try client.currentTick())
            let elapsed = Double((t1 - t0).components.attoseconds) * 1e-18 + Double((t1 - t0).components.seconds)
            let expected = elapsed * 60
            // Each pong's tick is sampled within a tick of its ping; allow the two round trips plus one tick.
            #expect(abs(Double(second - first) - expected) <= 3, "ticks \(second - first) over \(elapsed) s")
            withExtendedLifetime(server) {}
        }
    }
}
