import Dynamics
import NetProtocol

/// `hash`, `checkpoint` and `restore` (docs/PROTOCOL.md, "Record, replay, checkpoints and the state hash").
///
/// Guarantees: `hash` changes nothing; a room keeps at most `Room.maxCheckpoints` names (taking an existing
/// name again replaces it); `restore` puts the room back exactly as the checkpoint saw it — ids and the id
/// counter, poses, velocities, behaviors, contacts' warm start, hold, tick and time — and sends every member
/// the `scene` and then its state (a keyframe for compact clients). Drags in the checkpoint whose client has
/// left the room end at the restore (a drag belongs to a connection).
extension Room {
    package static let maxCheckpoints = 16

    package struct Checkpoint {
        var world: WorldCheckpoint
        var tick: UInt64
    }

    package func hashFields() -> SharedWorld.AckFields {
        [("tick", .number(Double(tick))), ("hash", .string(StateHasher.hex(world.stateHash(tick: tick))))]
    }

    package func takeCheckpoint(_ name: String) throws(ProtocolError) -> SharedWorld.AckFields {
        try Room.checkName(name)
        guard checkpoints[name] != nil || checkpoints.count < Room.maxCheckpoints else {
            throw ProtocolError(.badValue, "this room already keeps \(Room.maxCheckpoints) checkpoints (restore or reuse a name)")
        }
        checkpoints[name] = Checkpoint(world: world.checkpoint(), tick: tick)
        return [("name", .string(name)), ("tick", .number(Double(tick))), ("checkpoints", .number(Double(checkpoints.count)))]
    }

    package func restoreCheckpoint(_ name: String) throws(ProtocolError) -> SharedWorld.AckFields {
        try Room.checkName(name)
        guard let saved = checkpoints[name] else {
            throw ProtocolError(.badValue, "no checkpoint \"\(name)\" in this room")
        }
        world.restore(saved.world)
        tick = saved.tick
        // The snapshot schedule follows the restored clock; a world at rest announces itself again.
        lastSnapshotIndex = UInt64(Double(tick) * min(config.snapshotHz, config.tickHz) / config.tickHz)
        lastKeepAliveTick = tick
        sentPausedSnapshot = false
        _ = world.animator.takeContactEvents()
        return [("name", .string(name)), ("tick", .number(Double(tick))), ("time", .number(world.time))]
    }

    /// Ends the restored drags whose client is no longer in the room, each written to the recording as that
    /// client's `drag` `end` (after the `restore` line, so a replay does the same).
    package func endAbsentDrags() {
        for (client, drag) in world.drags.sorted(by: { $0.key < $1.key }) where seats[client] == nil {
            world.endDrag(client: client)
            recordApplied(.drag(phase: .end, x: nil, y: nil, body: nil), client: client, name: drag.clientName)
        }
    }

    /// After a restore: every member gets the restored `scene`, then its state (the sender's ack follows, as
    /// after a `join`). A held room's `syncScene` already sent the state.
    package func broadcastRestored() {
        let wasHeld = world.held
        syncScene()
        guard !wasHeld else { return }
        for session in receivers { sendState(to: session) }
    }

    private static func checkName(_ name: String) throws(ProtocolError) {
        guard !name.isEmpty, name.utf8.count <= 64 else {
            throw ProtocolError(.badValue, "a checkpoint name is 1 to 64 bytes")
        }
    }
}
