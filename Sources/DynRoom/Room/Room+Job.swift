import Dynamics
import NetProtocol

/// `step N` as the room's own long job (docs/PROTOCOL.md `step`, docs/ARCHITECTURE.md Rooms and threads):
/// checked and accepted on the loop thread, run on a worker in slices of at most one tick period, then
/// answered on the loop thread; the room's later inputs wait until it is done.
package struct LongStep {
    /// Who asked, to get the ack when the steps are done.
    package let seat: Seat
    package let id: MessageID?
    package let ticks: Int
    package var remaining: Int
    /// The room's tick when the command was applied (what the recording says).
    package let appliedAt: UInt64
    /// Whether someone in the room takes `contact` messages (read on the loop thread when it was accepted).
    package let wantsContacts: Bool
}

/// A save the front asked for (`--state-interval`, unload, shutdown, or the fleet's copy).
package struct SaveRequest: Sendable {
    package var reason: String
    /// Save even when nothing changed since the last save.
    package var always: Bool
    /// Hand the encoded state back (`savedState`) for the fleet's copy in Redis.
    package var wantsBytes: Bool

    package init(reason: String, always: Bool, wantsBytes: Bool) {
        self.reason = reason
        self.always = always
        self.wantsBytes = wantsBytes
    }
}

/// A state a job encoded (and wrote to the state file when the room has one), for the front to pass on.
package struct SavedState: Sendable {
    package let bytes: [UInt8]
    package let tick: UInt64
    package let reason: String
}

extension Room {
    /// One job on a worker thread: the long `step` (a slice of it) or the ticks due, then a requested save.
    /// Touches nothing but the room: what it produced waits in `pending` and `savedState` for the loop thread.
    package func work(nowNs: UInt64, budgetNs: UInt64, audience: RoomAudience) {
        if longStep != nil {
            runLongStepSlice(startNs: nowNs, budgetNs: budgetNs)
        } else {
            gaveBack = advance(nowNs: nowNs, budgetNs: budgetNs, audience: audience)
        }
        if let request = saveRequest {
            saveRequest = nil
            savedState = save(request)
        }
    }

    /// True when the room has work for a worker beyond its due ticks.
    package var hasJob: Bool { longStep != nil || saveRequest != nil }

    /// Steps the long `step` until it is done or `budgetNs` is spent.
    private func runLongStepSlice(startNs: UInt64, budgetNs: UInt64) {
        guard var job = longStep else { return }
        while job.remaining > 0 {
            // Checked held when accepted; nothing else reaches the room until the job is done.
            _ = try? world.step(ticks: 1) {
                tick += 1
                pending.ticks += 1
                if job.wantsContacts { encodeContacts(into: &pending.contactLines) } else { _ = world.animator.takeContactEvents() }
            }
            job.remaining -= 1
            if MonotonicClock.nowNs &- startNs >= budgetNs { break }
        }
        longStep = job
    }

    /// Accepts `step ticks` from `session` (loop thread): the room's next jobs run it.
    func beginLongStep(ticks: Int, id: MessageID?, from session: Seat) throws(ProtocolError) {
        guard world.held else { throw ProtocolError(.badValue, "step needs a held world (send pause first)") }
        let wantsContacts = receivers.contains { $0.subscription.contacts }
        world.animator.contactEventsEnabled = wantsContacts
        longStep = LongStep(seat: session, id: id, ticks: ticks, remaining: ticks, appliedAt: tick, wantsContacts: wantsContacts)
    }

    /// After a job (loop thread): a finished long `step` is answered as the command always was — its steps'
    /// contacts (already written), the scene if it changed, the snapshot to everyone, then the ack.
    /// Returns true when a long step finished.
    @discardableResult
    package func finishLongStepIfDone() -> Bool {
        guard let job = longStep, job.remaining == 0 else { return false }
        longStep = nil
        unsaved = true
        syncScene()
        broadcastSnapshot(paused: !world.animator.isRunning)
        recordApplied(.step(ticks: job.ticks), at: job.appliedAt, client: job.seat.id, name: job.seat.name)
        if let id = job.id {
            job.seat.reply(.ack(id: id, fields: [("ticks", .number(Double(job.ticks))), ("time", .number(world.time))]))
        }
        front.flushReplies(of: job.seat)
        publish()
        return true
    }

    /// Encodes the state once; writes the state file (when the room has one) and hands the bytes back.
    private func save(_ request: SaveRequest) -> SavedState? {
        guard unsaved || request.always, statePath != nil || request.wantsBytes else { return nil }
        let started = MonotonicClock.nowNs
        let bytes = world.encodeState(tick: tick)
        if let path = statePath {
            do {
                try StateFile(path: path).save(bytes)
                let ms = Double(MonotonicClock.nowNs - started) / 1e6
                log.debug("room \(name): saved state to \(path) (\(request.reason), \(world.animator.itemCount) items, \(ms) ms)")
            } catch {
                log.error("room \(name): cannot save state (\(request.reason)): \(error)")
                return request.wantsBytes ? SavedState(bytes: bytes, tick: tick, reason: request.reason) : nil
            }
        }
        unsaved = false
        return request.wantsBytes ? SavedState(bytes: bytes, tick: tick, reason: request.reason) : nil
    }

    /// Copies what `rooms` and `GET /rooms` say about the room (loop thread, whenever the room is not on a
    /// worker), so the front never reads a world a worker is stepping.
    package func publish() {
        published = RoomSummary(name: name, clients: seats.count, bodies: world.animator.itemCount, scene: world.sceneName,
                                paused: !world.animator.isRunning, held: world.held, loaded: true)
    }
}
