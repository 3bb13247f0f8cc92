import Dynamics
import NetProtocol

/// Writing: the fixed-step tick, snapshots encoded once and shared by every client, and scenes.
extension Server {
    func onTickTimer() {
        let startNs = EventLoop.hrtimeNs
        serviceThrottledReaders()
        let due = clock.due(nowNs: startNs)
        // Catching up pauses once a tick period is spent, so reads, pings and signals get the loop between
        // slow steps (thousands of overlapping items). The ticks not run yet go back to the clock and run on
        // the next pass; only the clock's catch-up limit ever drops ticks.
        let budgetNs = UInt64(1e9 / config.tickHz)
        var ran: UInt64 = 0
        while ran < due {
            runTick()
            ran += 1
            if shuttingDown || EventLoop.hrtimeNs &- startNs >= budgetNs { break }
        }
        clock.giveBack(due - ran)
        guard !shuttingDown else { return }
        try? tickTimerRestart()
    }

    private func tickTimerRestart() throws {
        // One-shot timers re-armed from the clock: the schedule, not the timer, decides when ticks are due.
        // Never 0: libuv (< 1.46) runs a timer re-armed with 0 from its own callback again in the same pass,
        // so a server that falls behind would step forever without ever polling sockets or signals.
        let delay = max(1, clock.msUntilNext(nowNs: EventLoop.hrtimeNs))
        try tickTimer?.start(afterMs: delay) { [unowned self] in self.onTickTimer() }
    }

    private func runTick() {
        // A held world takes no steps and its tick stands still (docs/PROTOCOL.md, `pause`).
        guard !world.held else { return }
        let stepStartNs = EventLoop.hrtimeNs
        // edge: a tick at rest runs no step, so it is not a step time (docs/PROTOCOL.md, /metrics).
        let moving = world.animator.isRunning
        world.animator.step()
        if moving { metrics.stepped(seconds: Double(EventLoop.hrtimeNs &- stepStartNs) / 1e9) }
        tick += 1
        collectContacts()
        let index = UInt64(Double(tick) * min(config.snapshotHz, config.tickHz) / config.tickHz)
        guard index != lastSnapshotIndex else { return }
        lastSnapshotIndex = index
        if world.animator.isRunning {
            sentPausedSnapshot = false
            broadcastSnapshot(paused: false)
        } else if !sentPausedSnapshot {
            sentPausedSnapshot = true
            lastKeepAliveTick = tick
            broadcastSnapshot(paused: true)
        } else if Double(tick - lastKeepAliveTick) >= config.tickHz {
            lastKeepAliveTick = tick
            broadcastSnapshot(paused: true)
        }
    }

    /// The full `snapshot` line of the current state.
    func encodeSnapshot(paused: Bool) -> SharedBytes {
        world.fillStates(&states)
        return encodeSnapshotFromStates(paused: paused)
    }

    /// The full `snapshot` line of `states` (filled by the caller).
    func encodeSnapshotFromStates(paused: Bool) -> SharedBytes {
        let drags = world.dragInfos()
        let clients = sessions.count
        return states.withUnsafeBufferPointer {
            SnapshotEncoder.encodeShared(tick: tick, time: world.time, paused: paused, held: world.held, clients: clients,
                                         bodies: $0, drags: drags)
        }
    }

    /// Sends the state to every client whose own rate makes it due (all of them for `paused` snapshots):
    /// one shared full snapshot, and compact frames encoded once per distinct baseline. While held, every
    /// snapshot (pause, step) goes to everyone.
    func broadcastSnapshot(paused: Bool) {
        world.fillStates(&states)
        var full: SharedBytes?
        var compact: [ClientSession] = []
        for session in sessions.values where session.authorized && !session.closing {
            let subscription = session.subscription
            guard subscription.snapshots != .off,
                  session.feed.isDue(tick: tick, hz: subscription.snapshotHz, tickHz: config.tickHz,
                                    force: paused || world.held)
            else { continue }
            if subscription.snapshots == .compact {
                compact.append(session)
                continue
            }
            if full == nil { full = encodeSnapshotFromStates(paused: paused) }
            session.connection.write(full!, kind: .latestOnly)
            metrics.sentSnapshot(bytes: full!.count, clients: 1)
        }
        if !compact.isEmpty { sendFrames(to: compact, paused: paused) }
    }

    /// Sends a fresh `scene` to every authorized client when the structure changed since the last one.
    func syncScene() {
        guard world.structureChanged || cachedScene == nil else { return }
        let changed = cachedScene != nil
        world.structureChanged = false
        let shared = SharedBytes(ServerMessage.scene(world.sceneInfo()).encoded())
        cachedScene = shared
        guard changed else { return }
        for session in sessions.values where session.authorized && !session.closing {
            session.connection.write(shared)
            session.feed.needKeyframe()
        }
    }
}
