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
    private var standIns: [Int: ClientSession] = [:]

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
    }

    var finished: Bool { next >= recording.entries.count }
    /// Fixed ticks the room ran (between entries and in `step` commands alike; a restore does not undo them).
    private(set) var ticks: UInt64 = 0

    /// Applies the entries due at the room's tick (and, in a held room, the next one whatever its tick says:
    /// a held room's tick only moves by `step`); then, when the next entry lies ahead, runs one tick. Returns
    /// false once the recording is done or the next entry lies beyond `until`.
    func advance(until: UInt64? = nil) -> Bool {
        while next < recording.entries.count, recording.entries[next].tick <= room.tick {
            if let until, recording.entries[next].tick > until { return false }
            play(recording.entries[next])
            next += 1
        }
        guard next < recording.entries.count else { return false }
        if let until, room.tick >= until { return false }
        if room.world.held {
            // Live, a held room's tick moves only by `step`: an entry ahead of it means the replay went astray.
            noteDivergence(Divergence(tick: room.tick, expected: "tick \(recording.entries[next].tick)",
                                      got: "tick \(room.tick) (held)"))
            let entry = recording.entries[next]
            room.tick = entry.tick
            return true
        }
        runTick()
        return true
    }

    /// One fixed tick, as `Room.runTick` takes it live.
    private func runTick() {
        room.world.animator.step()
        room.tick += 1
        ticks += 1
        _ = room.world.animator.takeContactEvents()
    }

    private func play(_ entry: Recording.Entry) {
        switch entry {
        case let .hash(tick, expected):
            hashesChecked += 1
            let got = StateHasher.hex(room.world.stateHash(tick: room.tick))
            if got != expected { noteDivergence(Divergence(tick: tick, expected: expected, got: got)) }
        case let .command(tick, client, name, command):
            commands += 1
            let session = standIn(client: client, name: name)
            do {
                _ = try room.apply(command, from: session)
                if case .step(let n) = command { ticks += UInt64(n) }
                if case .restore = command { room.broadcastRestored() }
                room.syncScene()
            } catch {
                noteDivergence(Divergence(tick: tick, expected: "\(command.typeName) applied",
                                          got: "\(error.code.rawValue): \(error.message)"))
            }
        }
    }

    private func noteDivergence(_ found: Divergence) {
        if divergence == nil { divergence = found }
    }

    private func standIn(client: Int, name: String) -> ClientSession {
        if let session = standIns[client] {
            session.name = name
            return session
        }
        let session = ClientSession(id: client, connection: NullTransport(), maxLineBytes: 256,
                                    bucket: TokenBucket(rate: 1, burst: 1, nowNs: 0), authorized: true, admin: true,
                                    room: room)
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
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// The connection of a replay's stand-in client: what the room writes to it goes nowhere.
final class NullTransport: ClientTransport {
    func write(_ bytes: SharedBytes, kind: WriteKind) {}
    var pendingBytes: Int { 0 }
    var hasQueuedLatestOnly: Bool { false }
    var stalledForMs: UInt64 { 0 }
    func pauseReading() {}
    func resumeReading() {}
    func closeAfterFlush(timeoutMs: UInt64) {}
    func closeNow() {}
    var peerDescription: String { "replay" }
    var transportName: String { "replay" }
}
