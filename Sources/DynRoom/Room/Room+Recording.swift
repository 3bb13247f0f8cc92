import Dynamics
import NetProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `--record DIR` (docs/PROTOCOL.md, "Recordings"): what the room writes and when.
///
/// Guarantees: the header's state is exactly where the room's recorded history starts — the room puts
/// itself in the state the header describes (as a replay restores it, contact caches starting afresh) before
/// anything else happens, so a replay that restores the header and applies the same commands at the same
/// ticks takes exactly the same steps; every command that changed the room is written at the tick it was
/// applied, with the client's id and name (drags are per client); a drag that ends without a command (the
/// client left, or a restore found its client gone) is written as that client's `drag` `end`; a hash line
/// follows whenever the tick passes a multiple of `--hash-every`.
extension Room {
    /// Opens `DIR/NAME.ndjson` and writes the header; logs and records nothing when it cannot.
    package func startRecording(dir: String) {
        let path = dir.hasSuffix("/") ? dir + name + ".ndjson" : dir + "/" + name + ".ndjson"
        _ = mkdir(dir, 0o755)   // an existing directory is fine; a real problem shows when the file is opened
        let state = world.encodeState(tick: tick)
        do {
            let fresh = SharedWorld(width: world.width, height: world.height, stepHz: config.tickHz, maxBodies: world.maxBodies)
            _ = try fresh.restoreState(state)
            world.restore(fresh.checkpoint())
            let recorder = try Recorder(path: path, hashEvery: config.hashEvery, startTick: tick)
            recorder.writeHeader(room: name, tickHz: config.tickHz, config: config, state: state,
                                 hash: world.stateHash(tick: tick))
            self.recorder = recorder
            log.notice("room \(name): recording to \(path)")
        } catch {
            log.error("room \(name): not recording: \(error)")
        }
    }

    /// A command that changed the room, at the tick it was applied at (`step` moves the tick on).
    package func recordApplied(_ command: ClientCommand, at appliedAt: UInt64? = nil, client: Int, name clientName: String) {
        guard let recorder else { return }
        switch command {
        case .hash, .ping, .subscribe, .hello, .join, .rooms: return
        default: break
        }
        recorder.recordCommand(command, tick: appliedAt ?? tick, client: client, name: clientName)
        if case .restore = command { recorder.rewind(to: tick) }
        recordHashIfDue()
        checkRecorder()
    }

    /// Writes the hash line when the tick passed a multiple of `--hash-every` (after every tick and command).
    package func recordHashIfDue() {
        guard let recorder, recorder.hashDue(tick: tick) else { return }
        recorder.recordHash(world.stateHash(tick: tick), tick: tick)
        checkRecorder()
    }

    private func checkRecorder() {
        if let failure = recorder?.failure {
            log.error("room \(name): recording stopped: \(failure)")
            recorder = nil
        }
        rotateRecordingIfFull()
    }

    /// `--record-max-mb`: a recording past the cap moves to `NAME.ndjson.1` (replacing an older one) and a new
    /// recording starts from the room's state now, so a long session keeps at most two files, each of which
    /// replays on its own.
    private func rotateRecordingIfFull() {
        guard let recorder, let cap = config.recordMaxBytes, recorder.bytesWritten > cap,
              let dir = config.recordDir else { return }
        let path = recorder.path
        self.recorder = nil
        _ = rename(path, path + ".1")
        log.notice("room \(name): recording past \(cap) bytes: moved to \(path).1, starting anew")
        startRecording(dir: dir)
    }
}
