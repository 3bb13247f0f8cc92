import DynRoom
import NetProtocol
import NetLoop

/// The beat: one timer on the loop thread at the tick rate that hands every room with work to the `--threads`
/// workers and never waits for one (docs/ARCHITECTURE.md, Rooms and threads). A room at rest only counts its
/// ticks, here on the loop (it costs nothing); a room still on a worker, or running a long `step`, is left
/// alone: it falls behind alone (its clock owes it the ticks, up to the catch-up limit), no other room waits.
extension Server {
    func onTickTimer() {
        let startNs = EventLoop.hrtimeNs
        if tickTimerDueNs > 0 { metrics.loopLagged(seconds: Double(startNs &- min(startNs, tickTimerDueNs)) / 1e9) }
        serviceThrottledReaders()
        _ = clock.due(nowNs: startNs)
        // A job runs at most one tick period of its room's ticks; the ticks it did not run go back to the
        // room's clock and the room goes to the back of the workers' queue (workersFinished).
        let budgetNs = UInt64(1e9 / config.tickHz)
        for (room, run) in zip(roomOrder, runOrder) {
            guard !run.onWorker else { continue }
            // A room at rest is left alone until its keep-alive is due or something wakes it.
            guard room.restingUntilNs <= startNs || room.hasJob else { continue }
            // A fleet room past its lease deadline does not step (docs/ARCHITECTURE.md, The room lifecycle).
            if let cluster, !cluster.isActive(room.name) { continue }
            if room.isAtRest, !room.hasJob {
                _ = room.advance(nowNs: startNs, budgetNs: budgetNs, audience: room.audience())
                room.deliverAdvance()
            } else {
                submit(room, nowNs: startNs, budgetNs: budgetNs)
            }
        }
        guard !shuttingDown else { return }
        // One-shot timers re-armed from the clock: the schedule, not the timer, decides when ticks are due.
        // Never 0: libuv (< 1.46) runs a timer re-armed with 0 from its own callback again in the same pass.
        let nowNs = EventLoop.hrtimeNs
        let delay = max(1, clock.msUntilNext(nowNs: nowNs))
        tickTimerDueNs = nowNs + delay * 1_000_000
        try? tickTimer?.start(afterMs: delay) { [unowned self] in self.onTickTimer() }
    }
}
