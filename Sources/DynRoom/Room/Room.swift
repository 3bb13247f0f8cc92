import Dynamics
import Logging
import NetProtocol

/// One room (docs/PROTOCOL.md, Rooms): a world of its own with its clock and tick, its members, its cached
/// `scene`, its snapshot schedule, contact and notice fan-out and its state file.
///
/// Guarantees: everything a room sends goes to its own members only; its world changes only through its
/// members' commands and its own steps, so it is deterministic whatever other rooms do; `tick` increases by
/// one per fixed step (and by the ticks that pass while it rests); a room at rest takes no step and encodes
/// nothing but the once-a-second keep-alive for its members (none when it has none). The step itself
/// (`advance`) touches nothing but the room, so a worker thread may run it while the loop thread waits
/// (docs/ARCHITECTURE.md, Rooms and threads); everything else runs on the loop thread.
package final class Room {
    /// The room every connection starts in; it always exists and is never unloaded.
    package static let mainName = "main"
    package let name: String
    package let config: RoomConfig
    package let log: Logger
    /// Where the room's writes and counters go (the server's front, on the loop thread).
    package unowned let front: any RoomFront
    package let world: SharedWorld
    /// The seats of the clients in this room (authorized or not), by client id.
    package var seats: [Int: Seat] = [:]
    /// What each member has been sent of this room's state, by client id: the room's own, never the seat's, so
    /// a worker encoding this room's frames and another room taking the same seat never share it.
    package var feeds: [Int: ClientFeed] = [:]
    /// The room's packed encoder: its table pool and scratch serve every frame (Room+Frames), one thread at a time.
    package let packedEncoder = PackedFrameEncoder()
    /// Given to the room's creator; whoever joins with it is admin in the room. nil for `main`.
    package var roomToken: String?
    /// Where the room is saved (`--state-dir`, or `--state` for `main`); nil: not saved.
    package let statePath: String?
    /// When the last member left (the idle unload counts from here); nil while it has members.
    package var idleSinceNs: UInt64?
    /// Set by anything that changes what the state file would say but the ticks at rest; cleared by a save.
    package var unsaved = true

    package var clock: TickClock
    package var tick: UInt64 = 0
    package var states: [BodyState] = []
    package var lastSnapshotIndex: UInt64 = 0
    package var sentPausedSnapshot = false
    package var lastKeepAliveTick: UInt64 = 0
    package var cachedScene: SharedBytes?
    /// Contact events beyond the per-tick cap, reported in the next `contact` message's `dropped`.
    package var droppedContacts = 0
    /// What the last `advance` produced for the loop thread to write (`deliverAdvance`).
    package var pending = PendingOutput()
    /// The ticks the last job left undone (given back to the clock): how far the room is behind.
    package var ticksBehind: UInt64 = 0
    /// Set by a job that ran out of budget with ticks still due (the beat comes back at once).
    package var gaveBack = false
    /// While at rest: the beat leaves the room alone until this time (its next keep-alive), unless something
    /// reaches it first (`wake`).
    package var restingUntilNs: UInt64 = 0

    /// Anything that may change what the room does next (a member's message, a join or a leave) brings a
    /// resting room back onto every beat. The ticks that passed at rest since the beat last looked are counted
    /// first (a held room's are not: its tick stands still), so a command applies at the current tick and the
    /// next step is the next tick, never a catch-up burst of steps for time spent at rest.
    package func wake() {
        guard restingUntilNs != 0 else { return }
        restingUntilNs = 0
        front.woke(self)
        let passed = clock.dueAll(nowNs: MonotonicClock.nowNs)
        guard !world.held, !playback else { return }
        tick += passed
        pending.ticks += passed
        recordHashIfDue()
    }

    /// A `step N` being run by the room's jobs (Room+Job.swift); the room takes no other input meanwhile.
    package var longStep: LongStep?
    /// A save for the next job (the front's state timer, or the fleet's copy).
    package var saveRequest: SaveRequest?
    /// What the last job's save encoded, for the front to take (the fleet's copy in Redis).
    package var savedState: SavedState?
    /// What `summary` says, copied by `publish` on the loop thread.
    package var published: RoomSummary
    /// Fenced by the front (Room+Lifecycle.swift): no steps, member commands answered `unavailable`.
    package var fenced = false
    /// The client that created the room (`--max-rooms-per-client`); nil for `main` and restored rooms.
    package var creatorClient: Int?

    /// `checkpoint`/`restore` (Room+Checkpoint.swift), by name.
    package var checkpoints: [String: Checkpoint] = [:]
    /// `--record DIR` (Room+Recording.swift); nil: not recording.
    package var recorder: Recorder?
    /// Driven by a replay (ReplayPlayer.swift), not by the beat: the beat neither steps it nor counts its ticks.
    package var playback = false

    /// Creates the room's world: restored from `statePath` when that file holds a good state, else `scene`.
    /// `beatStartNs` is the server's tick schedule, so every room's ticks fall due on the same beat.
    package init(name: String, config: RoomConfig, log: Logger, front: any RoomFront, scene: String, statePath: String?,
         beatStartNs: UInt64) {
        self.name = name
        self.config = config
        self.log = log
        self.front = front
        self.statePath = statePath
        world = SharedWorld(width: config.worldWidth, height: config.worldHeight, stepHz: config.tickHz,
                            maxBodies: config.maxBodies)
        world.animator.workers = config.stepWorkers
        // On the server's beat, owing none of the ticks that passed before the room existed.
        clock = TickClock(hz: config.tickHz, startNs: beatStartNs, joiningAt: MonotonicClock.nowNs)
        published = RoomSummary(name: name, clients: 0, bodies: 0, scene: scene, paused: true, held: false, loaded: true)
        loadInitialWorld(scene: scene)
        if config.held { world.held = true }
        if let dir = config.recordDir { startRecording(dir: dir) }
        publish()
    }

    /// Members that receive the world (past the token check).
    package var receivers: some Sequence<Seat> {
        seats.values.lazy.filter { $0.authorized && !$0.closing }
    }

    /// The entry of `rooms` and `GET /rooms` for this room.
    /// Read on the loop thread, also while a worker steps the room: the world as `publish` last saw it.
    package var summary: RoomSummary {
        var summary = published
        summary.clients = seats.count
        return summary
    }

    /// Puts `session` in this room (its feed starts with a keyframe); the caller sends it the world.
    package func add(_ session: Seat) {
        // A pending structure change goes to the others first, so the newcomer does not get that scene twice.
        syncScene()
        seats[session.id] = session
        wake()
        feeds[session.id] = ClientFeed()
        idleSinceNs = nil
    }

    /// Takes `session` out of this room: its drag ends.
    package func remove(_ session: Seat, nowNs: UInt64) {
        guard seats.removeValue(forKey: session.id) != nil else { return }
        feeds.removeValue(forKey: session.id)
        wake()
        if world.endDrag(client: session.id) {
            unsaved = true
            recordApplied(.drag(phase: .end, x: nil, y: nil, body: nil), client: session.id, name: session.name)
        }
        if seats.isEmpty { idleSinceNs = nowNs }
    }

    /// Sends the current scene and, at once, the current snapshot (also when the world is paused).
    package func sendWorld(to session: Seat) {
        syncScene()
        if let scene = cachedScene { front.write(scene, kind: .reliable, to: session.id) }
        sendState(to: session)
    }
}

/// The entry of `rooms` (the ack's `rooms` array) and `GET /rooms`.
package struct RoomSummary: Sendable, Equatable {
    package var name: String
    package var clients: Int
    package var bodies: Int
    package var scene: String
    package var paused: Bool
    package var held: Bool
    package var loaded: Bool
    /// `HOST:PORT` of the server that holds the room, in a fleet (docs/PROTOCOL.md, A fleet of servers).
    package var owner: String? = nil

    package init(name: String, clients: Int, bodies: Int, scene: String, paused: Bool, held: Bool, loaded: Bool,
                 owner: String? = nil) {
        self.name = name
        self.clients = clients
        self.bodies = bodies
        self.scene = scene
        self.paused = paused
        self.held = held
        self.loaded = loaded
        self.owner = owner
    }

    package var json: JSONValue {
        var fields: [(String, JSONValue)] = [("name", .string(name)), ("clients", .number(Double(clients))),
                                             ("bodies", .number(Double(bodies))), ("scene", .string(scene)),
                                             ("paused", .bool(paused)), ("held", .bool(held)), ("loaded", .bool(loaded))]
        if let owner { fields.append(("owner", .string(owner))) }
        return .object(fields)
    }
}
