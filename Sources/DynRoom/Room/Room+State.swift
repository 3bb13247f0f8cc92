import Dynamics
import NetProtocol

/// A room's state file (docs/STATE.md): `--state FILE` for `main`, `--state-dir DIR/NAME.json` for every room.
///
/// Guarantees: a room with a good file continues that world (same ids, poses, behaviors, time, tick) and says
/// so in the log; a bad file (corrupt, truncated, another format or world size) is logged, kept as
/// `FILE.bad-<time>`, and the room starts with its scene; a failed save is logged and retried at the next
/// interval, never fatal; a room whose state did not change since its last save (at rest, no command) is not
/// written again, so rooms at rest cost no disk writes.
extension Room {
    /// Restores the state file when there is a good one, else loads `scene`.
    package func loadInitialWorld(scene: String) {
        let preset = Scenes.named(scene) ?? Scenes.named("default")!
        guard let path = statePath else {
            world.load(preset, name: scene)
            return
        }
        let file = StateFile(path: path)
        do {
            guard let bytes = try file.load() else {
                log.notice("room \(name): no state file at \(path) yet: starting with scene \(scene)")
                world.load(preset, name: scene)
                return
            }
            tick = try world.restoreState(bytes)
            unsaved = false
            log.notice("room \(name): restored state from \(path): scene \(world.sceneName), \(world.animator.itemCount) items, tick \(tick), time \((world.time * 1000).rounded() / 1000) s\(world.held ? ", held" : "")")
        } catch {
            let kept = file.quarantine()
            log.error("room \(name): state file \(path) is unusable: \(error); kept as \(kept ?? "(could not move it)"); starting with scene \(scene)")
            world.load(preset, name: scene)
        }
    }

    /// Writes the state file now when the room changed since its last save (or `always`).
    package func saveState(reason: String, always: Bool = false) {
        guard let path = statePath, unsaved || always else { return }
        let started = MonotonicClock.nowNs
        do {
            try StateFile(path: path).save(world.encodeState(tick: tick))
            unsaved = false
            let ms = Double(MonotonicClock.nowNs - started) / 1e6
            log.debug("room \(name): saved state to \(path) (\(reason), \(world.animator.itemCount) items, \(ms) ms)")
        } catch {
            log.error("room \(name): cannot save state (\(reason)): \(error)")
        }
    }
}
