import Dynamics
import NetProtocol

/// `--state FILE` (docs/STATE.md): the world is saved every `--state-interval` seconds and at shutdown, and
/// restored at start.
///
/// Guarantees: a start with a good file continues that world (same ids, poses, behaviors, time, tick) and
/// says so in the log; a start with a bad file (corrupt, truncated, another format or world size) logs why,
/// keeps the file as `FILE.bad-<time>` and starts with `--scene`; a failed save is logged and retried at the
/// next interval, never fatal.
extension Server {
    /// Restores the state file when there is a good one, else loads `scene`.
    func loadInitialWorld(_ scene: (SharedWorld) -> Void) {
        guard let path = config.statePath else {
            world.load(scene, name: config.scene)
            return
        }
        let file = StateFile(path: path)
        do {
            guard let bytes = try file.load() else {
                log.notice("no state file at \(path) yet: starting with scene \(config.scene)")
                world.load(scene, name: config.scene)
                return
            }
            tick = try world.restoreState(bytes)
            log.notice("restored state from \(path): scene \(world.sceneName), \(world.animator.itemCount) items, tick \(tick), time \((world.time * 1000).rounded() / 1000) s\(world.held ? ", held" : "")")
        } catch {
            let kept = file.quarantine()
            log.error("state file \(path) is unusable: \(error); kept as \(kept ?? "(could not move it)"); starting with scene \(config.scene)")
            world.load(scene, name: config.scene)
        }
    }

    /// Starts the periodic save.
    func startStateTimer() throws {
        guard config.statePath != nil else { return }
        let timer = try UVTimer(loop: loop)
        let ms = UInt64(config.stateIntervalS * 1000)
        try timer.start(afterMs: ms, repeatMs: ms) { [unowned self] in self.saveState(reason: "interval") }
        stateTimer = timer
    }

    /// Writes the state file now.
    func saveState(reason: String) {
        guard let path = config.statePath else { return }
        let started = EventLoop.hrtimeNs
        do {
            try StateFile(path: path).save(world.encodeState(tick: tick))
            let ms = Double(EventLoop.hrtimeNs - started) / 1e6
            log.debug("saved state to \(path) (\(reason), \(world.animator.itemCount) items, \(ms) ms)")
        } catch {
            log.error("cannot save state (\(reason)): \(error)")
        }
    }
}
