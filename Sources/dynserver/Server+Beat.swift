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
        let periodIndex = startNs / budgetNs
        returnRestedRooms(upTo: periodIndex)
        beatRuns += beatArrivals
        beatArrivals.removeAll(keepingCapacity: true)
        var kept = 0
        for index in beatRuns.indices {
            let run = beatRuns[index], room = run.room
            guard run.loaded else { run.inBeat = false; continue }
            // A room at rest leaves the beat until its keep-alive is due or something wakes it (`woke`), so
            // 1 000 resting rooms cost the beat nothing between their keep-alives.
            if !run.onWorker, room.restingUntilNs > startNs, !room.hasJob {
                run.inBeat = false
                let key = max(room.restingUntilNs / budgetNs, periodIndex + 1)
                run.calendarKey = key
                restCalendar[key, default: []].append(run)
                continue
            }
            beatRuns[kept] = run
            kept += 1
            guard !run.onWorker else { continue }
            // A fleet room past its lease deadline does not step (docs/ARCHITECTURE.md, The room lifecycle).
            if let cluster, !cluster.isActive(room.name) { continue }
            if room.isAtRest, !room.hasJob {
                _ = room.advance(nowNs: startNs, budgetNs: budgetNs, audience: room.audience())
                room.deliverAdvance()
            } else {
                submit(room, nowNs: startNs, budgetNs: budgetNs)
            }
        }
        beatRuns.removeLast(beatRuns.count - kept)
        guard !shuttingDown else { return }
        // One-shot timers re-armed from the clock: the schedule, not the timer, decides when ticks are due.
        // Never 0: libuv (< 1.46) runs a timer re-armed with 0 from its own callback again in the same pass.
        let nowNs = EventLoop.hrtimeNs
        let delay = max(1, clock.msUntilNext(nowNs: nowNs))
        tickTimerDueNs = nowNs + delay * 1_000_000
        try? tickTimer?.start(afterMs: delay) { [unowned self] in self.onTickTimer() }
    }

    /// Brings back onto the beat the resting rooms whose rest ends in a tick period up to `index` (entries a
    /// wake-up or a later rest made stale are dropped).
    private func returnRestedRooms(upTo index: UInt64) {
        if restCalendarIndex == 0 || restCalendarIndex > index { restCalendarIndex = index &- 1 }
        guard restCalendarIndex < index, !restCalendar.isEmpty else {
            restCalendarIndex = max(restCalendarIndex, index)
            return
        }
        // After a long stall, walk the calendar's keys rather than every period missed.
        let due: [UInt64] = index - restCalendarIndex > UInt64(restCalendar.count)
            ? restCalendar.keys.filter { $0 <= index }.sorted()
            : (restCalendarIndex + 1...index).filter { restCalendar[$0] != nil }
        for key in due {
            for run in restCalendar.removeValue(forKey: key) ?? [] where run.calendarKey == key {
                joinBeat(run)
            }
        }
        restCalendarIndex = index
    }
}
