/// Fixed-step timing against a monotonic clock: tick n is due at `start + n / hz`, so the tick count never
/// drifts from wall time however late each timer fires (a late wake-up runs the missed ticks, up to
/// `maxCatchUp` at once; beyond that the schedule is moved forward instead of spiralling).
package struct TickClock {
    package let hz: Double
    package let maxCatchUp: UInt64
    private var startNs: UInt64
    private var skipped: UInt64 = 0
    package private(set) var ticks: UInt64 = 0

    package init(hz: Double, startNs: UInt64, maxCatchUp: UInt64 = 30) {
        self.hz = hz
        self.startNs = startNs
        self.maxCatchUp = maxCatchUp
    }

    /// A clock on the schedule that started at `startNs` whose first due tick is the next one after `nowNs`:
    /// the ticks before it are not owed (a room created or restored while the server runs).
    package init(hz: Double, startNs: UInt64, joiningAt nowNs: UInt64, maxCatchUp: UInt64 = 30) {
        self.init(hz: hz, startNs: startNs, maxCatchUp: maxCatchUp)
        if nowNs > startNs { ticks = UInt64(Double(nowNs - startNs) * 1e-9 * hz) }
    }

    /// How many ticks to run now; advances the count by that many.
    package mutating func due(nowNs: UInt64) -> UInt64 {
        guard nowNs > startNs else { return 0 }
        let target = UInt64(Double(nowNs - startNs) * 1e-9 * hz) &- skipped
        guard target > ticks else { return 0 }
        var n = target - ticks
        if n > maxCatchUp {
            skipped += n - maxCatchUp
            n = maxCatchUp
        }
        ticks += n
        return n
    }

    /// Every tick due now, without the catch-up limit: for a room at rest, whose ticks cost nothing, so that
    /// its tick keeps counting with wall time however seldom it is looked at.
    package mutating func dueAll(nowNs: UInt64) -> UInt64 {
        guard nowNs > startNs else { return 0 }
        let target = UInt64(Double(nowNs - startNs) * 1e-9 * hz) &- skipped
        guard target > ticks else { return 0 }
        defer { ticks = target }
        return target - ticks
    }

    /// Returns ticks that `due` handed out but that were not run; they are due again at once.
    package mutating func giveBack(_ n: UInt64) { ticks -= min(n, ticks) }

    /// Milliseconds until the next tick is due (at least 1, rounded up so the timer never fires early).
    package func msUntilNext(nowNs: UInt64) -> UInt64 {
        let dueNs = startNs + UInt64((Double(ticks + skipped + 1) / hz * 1e9).rounded(.up))
        guard dueNs > nowNs else { return 0 }
        return max(1, (dueNs - nowNs + 999_999) / 1_000_000)
    }

    /// Ticks dropped because the loop fell too far behind.
    package var skippedTicks: UInt64 { skipped }
}
