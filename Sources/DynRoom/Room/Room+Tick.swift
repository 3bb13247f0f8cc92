import Dynamics
import NetProtocol

/// What one `advance` produced, kept in the room until the loop thread writes it (`deliverAdvance`).
package struct PendingOutput {
    /// The snapshot the last due snapshot tick asked for: nil none, else whether it reports `paused`.
    package var snapshotPaused: Bool?
    /// That snapshot, encoded by `advance` for the members due (full, compact and packed).
    package var snapshot: SnapshotBatch?
    /// `contact` lines of the steps taken, for the members that subscribed.
    package var contactLines: [UInt8] = []
    /// Wall time of each step taken, for `dyn_step_seconds`.
    package var stepSeconds: [Double] = []
    /// Fixed ticks run (at rest too), for `dyn_ticks_total`.
    package var ticks: UInt64 = 0
    /// Ticks the clock's catch-up limit dropped, for `dyn_ticks_skipped_total`.
    package var skipped: UInt64 = 0
}

/// Who the room's output is for, read on the loop thread before `advance` (which must not touch sessions).
package struct RoomAudience {
    package var members = 0
    /// Every seat, as `clients` in snapshots and frames says.
    package var clients = 0
    package var wantsContacts = false
    /// The members that take snapshots, with their modes and rates.
    package var snapshotMembers: [Room.SnapshotMember] = []
}

/// The fixed-step tick: `advance` steps the world and encodes (no session is touched, so it may run on a worker
/// thread while the loop waits); `deliverAdvance` writes the result to the members on the loop thread.
extension Room {
    /// The audience of the next `advance` (loop thread); also switches the engine's contact recording to match.
    package func audience() -> RoomAudience {
        var audience = RoomAudience()
        audience.clients = seats.count
        for session in receivers {
            audience.members += 1
            if session.subscription.contacts { audience.wantsContacts = true }
        }
        audience.snapshotMembers = snapshotMembers()
        // The engine records events only while someone subscribes (docs/ENGINE.md, "Contact events").
        world.animator.contactEventsEnabled = audience.wantsContacts
        return audience
    }

    /// True when a beat has nothing to do but count ticks: no step, no snapshot but the keep-alive.
    package var isAtRest: Bool { playback || fenced || world.held || (!world.animator.isRunning && sentPausedSnapshot) }

    /// Runs the ticks due at `nowNs`, stopping once `budgetNs` is spent (the rest is given back to the clock
    /// and is due again at once). Returns true when ticks were given back.
    package func advance(nowNs: UInt64, budgetNs: UInt64, audience: RoomAudience) -> Bool {
        let gaveBack = isAtRest ? rest(nowNs: nowNs, audience: audience) : run(nowNs: nowNs, budgetNs: budgetNs, audience: audience)
        // The snapshot is encoded here too, so that a worker does it with the step and the loop only writes.
        if let paused = pending.snapshotPaused {
            // A job that ran several ticks sends the state of its last one: the next keep-alive counts from
            // the tick this paused snapshot says, not from the tick the world came to rest in.
            if paused { lastKeepAliveTick = tick }
            pending.snapshot = makeSnapshotBatch(paused: paused, members: audience.snapshotMembers, clients: audience.clients)
        }
        return gaveBack
    }

    /// Runs the ticks due (a room not at rest).
    private func run(nowNs: UInt64, budgetNs: UInt64, audience: RoomAudience) -> Bool {
        let skippedBefore = clock.skippedTicks
        let due = clock.due(nowNs: nowNs)
        pending.skipped += clock.skippedTicks - skippedBefore
        ticksBehind = 0
        guard due > 0 else { return false }
        var ran: UInt64 = 0
        while ran < due {
            runTick(audience: audience)
            ran += 1
            if MonotonicClock.nowNs &- nowNs >= budgetNs { break }
        }
        clock.giveBack(due - ran)
        ticksBehind = due - ran
        return ran < due
    }

    /// A room at rest (or held): no step. Its ticks pass (a held room's stand still, docs/PROTOCOL.md `pause`)
    /// and only the once-a-second keep-alive goes out; until that is due the beat leaves the room alone.
    private func rest(nowNs: UInt64, audience: RoomAudience) -> Bool {
        let due = clock.dueAll(nowNs: nowNs)
        let periodNs = 1e9 / config.tickHz
        // A replay drives its room itself (ReplayPlayer.swift): the beat neither steps it nor counts its ticks.
        if playback { return false }
        if world.held || fenced {
            restingUntilNs = nowNs + UInt64(periodNs * config.tickHz)
            return false
        }
        let keepAliveTicks = UInt64(config.tickHz.rounded(.up))
        // Never at or before the current tick (after held `step`s the last keep-alive may lie far back).
        let keepAliveTick = max(lastKeepAliveTick + keepAliveTicks, tick + 1)
        guard tick + due >= keepAliveTick else {
            tick += due
            pending.ticks += due
            recordHashIfDue()
            restingUntilNs = nowNs + UInt64(Double(keepAliveTick - tick) * periodNs)
            return false
        }
        // The keep-alive goes out at exactly its tick (one per tick_hz ticks); the ticks past it are given back
        // and counted on the next beat.
        let taken = keepAliveTick - tick
        clock.giveBack(due - taken)
        tick = keepAliveTick
        pending.ticks += taken
        lastKeepAliveTick = tick
        recordHashIfDue()
        if audience.members > 0 { pending.snapshotPaused = true }
        restingUntilNs = due > taken ? 0 : nowNs + UInt64(Double(keepAliveTicks) * periodNs)
        return false
    }

    private func runTick(audience: RoomAudience) {
        let stepStartNs = MonotonicClock.nowNs
        // A tick whose animator is at rest runs no step, so it is not a step time (docs/PROTOCOL.md, /metrics).
        let moving = world.animator.isRunning
        world.animator.step()
        if moving { pending.stepSeconds.append(Double(MonotonicClock.nowNs &- stepStartNs) / 1e9) }
        tick += 1
        pending.ticks += 1
        unsaved = true
        recordHashIfDue()
        if audience.wantsContacts { encodeContacts(into: &pending.contactLines) } else { _ = world.animator.takeContactEvents() }
        let index = UInt64(Double(tick) * min(config.snapshotHz, config.tickHz) / config.tickHz)
        guard index != lastSnapshotIndex else { return }
        lastSnapshotIndex = index
        if world.animator.isRunning {
            sentPausedSnapshot = false
            pending.snapshotPaused = false
        } else if !sentPausedSnapshot {
            sentPausedSnapshot = true
            lastKeepAliveTick = tick
            pending.snapshotPaused = true
        } else if Double(tick - lastKeepAliveTick) >= config.tickHz {
            lastKeepAliveTick = tick
            pending.snapshotPaused = true
        }
    }

    /// Writes what `advance` produced to the members (loop thread).
    package func deliverAdvance() {
        defer { publish() }
        guard pending.ticks > 0 || pending.snapshotPaused != nil || !pending.contactLines.isEmpty else { return }
        let output = pending
        pending = PendingOutput()
        front.ticked(output.ticks)
        if output.skipped > 0 { front.skippedTicks(output.skipped) }
        for seconds in output.stepSeconds { front.stepped(seconds: seconds) }
        if !output.contactLines.isEmpty {
            let shared = SharedBytes(output.contactLines)
            for session in receivers where session.subscription.contacts { front.write(shared, kind: .reliable, to: session.id) }
        }
        if let batch = output.snapshot { deliver(batch) }
    }

    /// The full `snapshot` line of the current state.
    package func encodeSnapshot(paused: Bool, clients: Int) -> SharedBytes {
        world.fillStates(&states)
        return encodeSnapshotFromStates(paused: paused, clients: clients)
    }

    /// The full `snapshot` line of `states` (filled by the caller).
    package func encodeSnapshotFromStates(paused: Bool, clients: Int) -> SharedBytes {
        let drags = world.dragInfos()
        return states.withUnsafeBufferPointer {
            SnapshotEncoder.encodeShared(tick: tick, time: world.time, paused: paused, held: world.held, clients: clients,
                                         bodies: $0, drags: drags)
        }
    }

    /// Sends the state to every member whose own rate makes it due (all of them for `paused` snapshots), now
    /// (loop thread): one shared full snapshot, and compact and packed frames encoded once per distinct
    /// baseline. While held, every snapshot (pause, step) goes to everyone.
    package func broadcastSnapshot(paused: Bool) {
        deliver(makeSnapshotBatch(paused: paused, members: snapshotMembers(), clients: seats.count))
    }

    /// Sends a fresh `scene` to every member when the structure changed since the last one.
    package func syncScene() {
        guard world.structureChanged || cachedScene == nil else { return }
        let changed = cachedScene != nil
        world.structureChanged = false
        unsaved = true
        let shared = SharedBytes(ServerMessage.scene(world.sceneInfo()).encoded())
        cachedScene = shared
        guard changed else { return }
        for session in receivers {
            front.write(shared, kind: .reliable, to: session.id)
            feeds[session.id, default: ClientFeed()].needKeyframe()
        }
        // A held world shows its new shape at once: the scene, then its poses (docs/PROTOCOL.md, `pause`).
        if world.held { broadcastSnapshot(paused: !world.animator.isRunning) }
    }
}
