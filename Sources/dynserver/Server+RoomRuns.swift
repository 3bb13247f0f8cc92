import DynRoom
import NetProtocol
import NetLoop

/// Where each room is, seen from the loop thread (docs/ARCHITECTURE.md, Rooms and threads): on a worker, or
/// here with the inputs that wait for it.
///
/// Guarantees: the loop touches a room only while it is not on a worker; inputs that reach a busy room (one on
/// a worker, running a long `step`, or with inputs already waiting) wait here and are applied in arrival order
/// once it is back, so each client's messages keep their order and a room's inputs land between two ticks.
final class RoomRun {
    /// Strong: a weak reference would put every retain of the room on the slow side-table path (with 1 000
    /// resting rooms, the beat's look at each room every tick was most of an idle server's CPU). `reindexRuns`
    /// forgets the runs of rooms no longer loaded.
    let room: Room
    /// Handed to a worker and not yet back.
    var onWorker = false
    /// Inputs for the room, in arrival order.
    var waiting: [() -> Void] = []
    /// Set while `waiting` is being applied (the inputs being applied are not "waiting" for themselves).
    var draining = false
    /// In the registry (false once the room is unloaded or dropped: the beat lets go of it).
    var loaded = false
    /// In `beatRuns` or `beatArrivals`.
    var inBeat = false
    /// The `restCalendar` entry that stands for this run while it rests (older entries are stale).
    var calendarKey: UInt64?

    init(room: Room) { self.room = room }
}

extension Server {
    /// The loop-side state of `room`.
    func run(of room: Room) -> RoomRun {
        let key = ObjectIdentifier(room)
        if let run = roomRuns[key] { return run }
        let run = RoomRun(room: room)
        roomRuns[key] = run
        return run
    }

    /// After `roomOrder` changed: every loaded room's run is marked loaded and a new one joins the beat; the runs
    /// of rooms no longer loaded are forgotten, except one still on a worker or with inputs waiting (a run holds
    /// its room).
    func reindexRuns() {
        var kept: [ObjectIdentifier: RoomRun] = [:]
        for room in roomOrder {
            let run = run(of: room)
            kept[ObjectIdentifier(room)] = run
            run.loaded = true
            if !run.inBeat && run.calendarKey == nil { joinBeat(run) }
        }
        for (key, run) in roomRuns where kept[key] == nil {
            run.loaded = false
            if run.onWorker || !run.waiting.isEmpty { kept[key] = run }
        }
        roomRuns = kept
    }

    /// Puts `run` on the beat from its next pass (a resting room's calendar entry goes stale).
    func joinBeat(_ run: RoomRun) {
        run.calendarKey = nil
        guard !run.inBeat else { return }
        run.inBeat = true
        beatArrivals.append(run)
    }

    /// True when the loop may touch `room` now, in order: not on a worker, no long `step`, no earlier input.
    func isFree(_ room: Room) -> Bool {
        let run = run(of: room)
        return !run.onWorker && room.longStep == nil && (run.waiting.isEmpty || run.draining)
    }

    /// Runs `body` now when `room` is free, else when it is, after every input that reached it before.
    func whenFree(_ room: Room, _ body: @escaping () -> Void) {
        if isFree(room) {
            body()
        } else {
            run(of: room).waiting.append(body)
        }
    }

    /// Hands `room` to a worker (loop thread): its due ticks or its long `step`, and a requested save.
    func submit(_ room: Room, nowNs: UInt64, budgetNs: UInt64) {
        let run = run(of: room)
        precondition(!run.onWorker, "room \(room.name) is on a worker already")
        run.onWorker = true
        workers?.submit(RoomJob(room: room, nowNs: nowNs, budgetNs: budgetNs, audience: room.audience()))
    }

    /// The async wake-up: every job that came back is delivered; a room whose long `step` is not done goes
    /// back to a worker at once (its next slice), one that is free applies what waited for it.
    func workersFinished() {
        guard let workers else { return }
        let budgetNs = UInt64(1e9 / config.tickHz)
        for job in workers.takeFinished() {
            let room = job.room
            let run = run(of: room)
            run.onWorker = false
            // A room dropped meanwhile (the fleet lost its lease) says nothing more.
            guard rooms[room.name] === room else { continue }
            room.deliverAdvance()
            room.finishLongStepIfDone()
            metrics.roomBehind(room.name, ticks: room.ticksBehind)
            if let saved = room.savedState {
                room.savedState = nil
                onSaved?(room, saved)
                cluster?.save(room, state: saved.bytes)
            }
            // A long step's next slice goes to the back of the queue at once.
            if room.longStep != nil, !shuttingDown {
                submit(room, nowNs: EventLoop.hrtimeNs, budgetNs: budgetNs)
                continue
            }
            drainWaiting(room)
            // So do the ticks a job gave back (after the inputs that waited: they land between two ticks). The
            // room is read only once it is known not to be on a worker again (a `step` that waited resubmits it).
            if !run.onWorker, room.gaveBack, room.longStep == nil, !shuttingDown {
                room.gaveBack = false
                submit(room, nowNs: EventLoop.hrtimeNs, budgetNs: budgetNs)
            }
        }
    }

    /// Applies the inputs that waited for `room`, in order, while it stays free (a `step` among them makes it
    /// busy again: the rest wait for that).
    func drainWaiting(_ room: Room) {
        let run = run(of: room)
        guard !run.draining else { return }
        run.draining = true
        let outerSettles = settlesAfterDrain
        settlesAfterDrain = []
        while !run.waiting.isEmpty, !run.onWorker, room.longStep == nil {
            let body = run.waiting.removeFirst()
            body()
        }
        // The batch's scene once (the room is on the loop until `submit` below), then each session's replies.
        if !run.onWorker { room.syncScene() }
        let settled = settlesAfterDrain ?? []
        settlesAfterDrain = outerSettles
        run.draining = false
        for session in settled { settle(session) }
        if !run.onWorker, room.longStep != nil, !shuttingDown {
            submit(room, nowNs: EventLoop.hrtimeNs, budgetNs: UInt64(1e9 / config.tickHz))
        }
    }

    // MARK: the front's operations on a room (the fleet's lifecycle calls these on the loop thread)

    /// Loads an encoded state into `room` in its input order (`then` gets nil, or why the bytes were refused).
    func loadState(_ room: Room, bytes: [UInt8], then: @escaping (Error?) -> Void = { _ in }) {
        whenFree(room) {
            do {
                try room.load(stateBytes: bytes)
                then(nil)
            } catch {
                then(error)
            }
        }
    }

    /// Fences `room` (a held room of the fleet's lifecycle): no steps; member commands get `unavailable`.
    func hold(_ room: Room) { whenFree(room) { room.fence() } }

    /// Lifts `hold`.
    func unhold(_ room: Room) { whenFree(room) { room.unfence() } }

    /// Runs `body` once `room` is free and has nothing waiting (e.g. an unload: saved with `saveState(always:)`
    /// first when wanted, then dropped from the registry by the caller).
    func whenIdle(_ room: Room, _ body: @escaping () -> Void) { whenFree(room, body) }

    /// Asks for a save of `room` on a worker (the state timer): the encoding, the file write and its fsync run
    /// there; the encoded bytes come back for the fleet's copy in Redis.
    func requestSave(_ room: Room, reason: String, always: Bool) {
        let wantsBytes = cluster != nil && room.name != Room.mainName
        whenFree(room) { [unowned self] in
            room.saveRequest = SaveRequest(reason: reason, always: always, wantsBytes: wantsBytes)
            if !self.run(of: room).onWorker, room.longStep == nil, !self.shuttingDown {
                self.submit(room, nowNs: EventLoop.hrtimeNs, budgetNs: UInt64(1e9 / self.config.tickHz))
            }
        }
    }
}
