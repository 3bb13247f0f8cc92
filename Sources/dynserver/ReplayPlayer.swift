import DynRoom
import Dynamics
import NetProtocol

/// Plays a `Recording` into a room (docs/PROTOCOL.md, "Replay"): the header's state first, then every entry
/// at its tick, the room stepping one fixed tick at a time between them exactly as the live room did.
///
/// Guarantees: the room starts in the state the header describes (restored as the live room normalised
/// itself when it began recording), so with the same build the same commands at the same ticks give the same
/// hashes; each hash line is checked when the room reaches its tick, and the first mismatch (or a command the
/// live room applied that fails here) is kept as the divergence. Commands are applied through the room's own
/// command code (`Room.apply`), with a stand-in session per recorded client (drags belong to a client), so
/// the replay cannot take a different path from the live room. Only the loop thread (or a headless caller)
/// uses it.
final class ReplayPlayer {
    struct Divergence {
        var tick: UInt64
        var expected: String
        var got: String
    }

    let recording: Recording
    let room: Room
    let startTick: UInt64
    private(set) var next = 0
    private(set) var commands = 0
    private(set) var hashesChecked = 0
    private(set) var divergence: Divergence?
    private var standIns: [Int: Seat] = [:]

    init(recording: Recording, room: Room) throws(ReplayError) {
        self.recording = recording
        self.room = room
        let header = recording.header
        let fresh = SharedWorld(width: room.world.width, height: room.world.height, stepHz: header.tickHz,
                                maxBodies: room.world.maxBodies)
        do {
            startTick = try fresh.restoreState(header.state)
        } catch {
            throw ReplayError("the recording's state is unusable: \(error)")
        }
        room.world.restore(fresh.checkpoint())
        room.tick = startTick
        room.checkpoints = [:]
        room.playback = true
        room.syncScene()
        // The header's own hash: a build that restores the state differently diverges before the first step.
        if let expected = header.hash {
            hashesChecked += 1
            let got = StateHasher.hex(room.world.stateHash(tick: startTick))
            if got != expected { noteDivergence(Divergence(tick: startTick, expected: expected, got: got)) }
        }
    }

    var finished: Bool { next >= recording.entries.count }
    /// Fixed ticks the room ran (between entries and in `step` commands alike; a restore does not undo them).
    private(set) var ticks: UInt64 = 0

    /// One step of the replay: the next entry when it is due at the room's tick (in a held room, whatever its
    /// tick says: a held room's tick moves only by `step`), else one fixed tick. Returns the ticks it took
    /// (0 for a command but `step`, which takes its ticks), or nil once the recording is done or the next
    /// entry lies beyond `until`. With `until` T the room stands at tick T at the end: the fixed ticks up to
    /// T run even past the last entry (not in a held room, whose tick only `step` moves).
    func advance(until: UInt64? = nil) -> UInt64? {
        guard next < recording.entries.count, until.map({ recording.entries[next].tick <= $0 }) ?? true else {
            if let until, room.tick < until, !room.world.held {
                runTick()
                return 1
            }
            return nil
        }
        let entry = recording.entries[next]
        if entry.tick <= room.tick {
            next += 1
            return play(entry)
        }
        if room.world.held {
            // Live, a held room's tick moves only by `step`: an entry ahead of it means the replay went astray.
            noteDivergence(Divergence(tick: room.tick, expected: "tick \(entry.tick)", got: "tick \(room.tick) (held)"))
            room.tick = entry.tick
            return 0
        }
        runTick()
        return 1
    }

    /// One fixed tick, as `Room.runTick` takes it live; its contact events go to the watchers that subscribed
    /// to them (`--serve`), as a live room's would (recording events changes nothing in the simulation).
    private func runTick() {
        room.world.animator.step()
        room.tick += 1
        ticks += 1
        room.collectContacts()
    }

    private func play(_ entry: Recording.Entry) -> UInt64 {
        switch entry {
        case let .hash(tick, expected):
            hashesChecked += 1
            let got = StateHasher.hex(room.world.stateHash(tick: room.tick))
            if got != expected { noteDivergence(Divergence(tick: tick, expected: expected, got: got)) }
            return 0
        case let .command(tick, client, name, command):
            commands += 1
            let session = standIn(client: client, name: name)
            do {
                _ = try room.apply(command, from: session)
                // Watchers (`--serve`) get the new scene at once; headless, nobody would read it.
                if !room.seats.isEmpty {
                    if case .restore = command { room.broadcastRestored() }
                    room.syncScene()
                }
                if case .step(let n) = command {
                    ticks += UInt64(n)
                    return UInt64(n)
                }
            } catch {
                noteDivergence(Divergence(tick: tick, expected: "\(command.typeName) applied",
                                          got: "\(error.code.rawValue): \(error.message)"))
            }
            return 0
        }
    }

    private func noteDivergence(_ found: Divergence) {
        if divergence == nil { divergence = found }
    }

    private func standIn(client: Int, name: String) -> Seat {
        if let session = standIns[client] {
            session.name = name
            return session
        }
        let session = Seat(id: client, authorized: true, serverAdmin: true)
        session.name = name
        standIns[client] = session
        return session
    }

    /// The one JSON line `dynserver replay` prints.
    func summary(seconds: Double) -> String {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("ticks"); w.uint(ticks)
        w.key("commands"); w.int(commands)
        w.key("hashes_checked"); w.int(hashesChecked)
        w.key("first_divergence")
        if let d = divergence {
            w.beginObject()
            w.key("tick"); w.uint(d.tick)
            w.key("expected"); w.string(d.expected)
            w.key("got"); w.string(d.got)
            w.endObject()
        } else {
            w.null()
        }
        w.key("seconds"); w.number(seconds)
        // Where the replay ended, to compare with the live room's `hash`.
        w.key("tick"); w.uint(room.tick)
        w.key("hash"); w.string(StateHasher.hex(room.world.stateHash(tick: room.tick)))
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// The front of a headless replay (`dynserver replay`): what the room writes goes nowhere, nothing is counted.
final class NullFront: RoomFront {
    func write(_ bytes: SharedBytes, kind: WriteKind, to client: Int) {}
    func flushReplies(of seat: Seat) { seat.replies.removeAll() }
    func latestStillQueued(client: Int) -> Bool { false }
    func ticked(_ n: UInt64) {}
    func stepped(seconds: Double) {}
    func skippedTicks(_ n: UInt64) {}
    func sentSnapshot(bytes: Int, clients: Int) {}
}
