import Dynamics
import NetProtocol

/// What the front's room lifecycle (the fleet's claim, fence and release) does to a room, on the loop thread
/// while the room is free (docs/ARCHITECTURE.md, Rooms and threads: the front's operations on a room).
///
/// Guarantees: a fenced room takes no step (its ticks stand still, like a held room's) and answers every member
/// command but `ping` with `unavailable`; unfencing puts it back as it was; a load replaces the world with the
/// given state's (same ids, clock and tick) or throws and leaves the room as it was.
extension Room {
    /// Replaces the world with an encoded state (docs/STATE.md), e.g. the fleet's copy from Redis.
    package func load(stateBytes bytes: [UInt8]) throws {
        let fresh = SharedWorld(width: world.width, height: world.height, stepHz: config.tickHz, maxBodies: world.maxBodies)
        let restoredTick = try fresh.restoreState(bytes)
        world.restore(fresh.checkpoint())
        world.held = fresh.held
        tick = restoredTick
        lastSnapshotIndex = UInt64(Double(tick) * min(config.snapshotHz, config.tickHz) / config.tickHz)
        lastKeepAliveTick = tick
        sentPausedSnapshot = false
        unsaved = false
        world.structureChanged = true
        syncScene()
    }

    /// Fences the room: no steps, member commands answered `unavailable`.
    package func fence() {
        fenced = true
        publish()
    }

    /// Lifts `fence`.
    package func unfence() {
        fenced = false
        wake()
        publish()
    }
}
