import DynRoom
import Logging
import NetProtocol
import NetLoop

/// `dynserver replay FILE --serve` (docs/PROTOCOL.md, "Replay"): the recording plays into room `replay` at
/// `--speed` times real time while clients join it and watch.
///
/// Guarantees: the room is created before the server prints that it listens, and the recording starts playing
/// when the first client joins `replay`, so every first watcher sees it from its start however long it took
/// to come; the beat never steps it (the player does, on its own timer
/// on the loop thread), and its watchers may look (`ping`, `subscribe`, `hash`) but not change it; it is never
/// unloaded; when the recording ends (or reaches `--until`) the room stays still with its last state, held
/// (watchers see `held`), its watchers get the notice `replay finished at tick T`, and the log says how the
/// replay went.
extension Server {
    static let replayRoomName = "replay"

    func startReplay(_ replay: ReplayServing) throws {
        let header = replay.recording.header
        var roomConfig = config.roomConfig
        roomConfig.tickHz = header.tickHz
        roomConfig.snapshotHz = min(config.snapshotHz, header.tickHz)
        roomConfig.worldWidth = header.width
        roomConfig.worldHeight = header.height
        roomConfig.maxBodies = header.maxBodies
        roomConfig.held = false
        roomConfig.recordDir = nil
        let room = Room(name: Server.replayRoomName, config: roomConfig, log: log, front: self, scene: "empty",
                        statePath: nil, beatStartNs: beatStartNs)
        let player = try ReplayPlayer(recording: replay.recording, room: room)
        rooms[room.name] = room
        roomOrder = rooms.values.sorted { $0.name < $1.name }
        let timer = try UVTimer(loop: loop)
        // Set when the first watcher is in the room: the recording's clock starts then.
        var startNs: UInt64?
        let periodMs = UInt64(max(1, (1000 / header.tickHz).rounded()))
        var played: UInt64 = 0
        log.notice("replaying \(replay.recording.entries.count) entries of room \(header.room) into room \(room.name) at \(replay.speed)x once a client joins it")
        try timer.start(afterMs: periodMs, repeatMs: periodMs) { [unowned self] in
            guard !self.shuttingDown, self.rooms[room.name] === room else {
                timer.close()
                return
            }
            if startNs == nil, !room.seats.isEmpty {
                startNs = EventLoop.hrtimeNs
                self.log.notice("replay started: a client joined room \(room.name)")
            }
            guard let started = startNs else { return }
            let elapsed = Double(EventLoop.hrtimeNs &- started) / 1e9
            let due = UInt64(elapsed * header.tickHz * replay.speed)
            var more = true
            // At most a second of the recording (or that many entries) per timer pass, so a fast replay still
            // lets the loop breathe; a `step` command takes its ticks of time, other commands none.
            var budget = max(1, Int(header.tickHz))
            var changed = false
            while played < due, budget > 0 {
                guard let took = player.advance(until: replay.until) else {
                    more = false
                    break
                }
                changed = true
                played += took
                budget -= 1
            }
            if changed {
                room.syncScene()
                room.broadcastSnapshot(paused: !room.world.animator.isRunning)
            }
            guard !more else { return }
            timer.close()
            let summary = player.summary(seconds: elapsed)
            self.log.notice("replay finished: \(summary)")
            // Watchers see that it finished: the room is held (their status says `held`, not `running`) and
            // those who take notices get one saying so.
            room.world.held = true
            room.broadcastSnapshot(paused: true)
            let notice = SharedBytes(ServerMessage.notice(Notice(client: 0, name: "replay", command: "replay",
                                                                 summary: "replay finished at tick \(room.tick)")).encoded())
            for seat in room.receivers where seat.subscription.notices {
                room.front.write(notice, kind: .reliable, to: seat.id)
            }
        }
    }
}
