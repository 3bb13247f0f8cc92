import DynRoom
import NetProtocol

/// The beat: one timer on the loop thread at the tick rate that advances every room (docs/ARCHITECTURE.md,
/// Rooms and threads). Rooms at rest only count their ticks, on the loop thread; busy rooms are advanced in
/// parallel on the `--threads` workers while the loop waits; then the loop writes every room's output.
extension Server {
    func onTickTimer() {
        let startNs = EventLoop.hrtimeNs
        serviceThrottledReaders()
        _ = clock.due(nowNs: startNs)
        // Catching up pauses once a tick period is spent, so reads, pings and signals get the loop between
        // slow steps. The ticks a room did not run go back to its clock and run on the next pass; only the
        // clock's catch-up limit ever drops ticks.
        let budgetNs = UInt64(1e9 / config.tickHz)
        var busy: [StepJob] = []
        var advanced: [Room] = []
        var behind = false
        for room in roomOrder {
            // A room at rest is left alone until its keep-alive is due or something wakes it.
            guard room.restingUntilNs <= startNs else { continue }
            // A fleet room past its lease deadline does not step (docs/ARCHITECTURE.md, The room lifecycle).
            if let cluster, !cluster.isActive(room.name) { continue }
            advanced.append(room)
            let audience = room.audience()
            if room.isAtRest {
                behind = room.advance(nowNs: startNs, budgetNs: budgetNs, audience: audience) || behind
            } else {
                busy.append(StepJob(room: room, nowNs: startNs, budgetNs: budgetNs, audience: audience))
            }
        }
        if busy.count > 1, let pool {
            pool.run(busy)
        } else {
            for job in busy { job.run() }
        }
        for room in advanced {
            behind = room.gaveBack || behind
            room.gaveBack = false
            room.deliverAdvance()
        }
        guard !shuttingDown else { return }
        // One-shot timers re-armed from the clock: the schedule, not the timer, decides when ticks are due.
        // Never 0: libuv (< 1.46) runs a timer re-armed with 0 from its own callback again in the same pass,
        // so a server that falls behind would step forever without ever polling sockets or signals.
        let delay = behind ? 1 : max(1, clock.msUntilNext(nowNs: EventLoop.hrtimeNs))
        try? tickTimer?.start(afterMs: delay) { [unowned self] in self.onTickTimer() }
    }
}
