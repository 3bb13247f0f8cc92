import Dynamics
import NetProtocol

/// Time control (docs/PROTOCOL.md, `pause`/`resume`/`step`): a held world takes no steps on the clock and
/// its `time` stands still; `step` takes an exact number of fixed steps at once.
extension SharedWorld {
    /// Simulated time as snapshots report it: the animator's stepped time plus held steps taken at rest.
    package var time: Double { animator.elapsedTime + restTime }

    package func pause() -> AckFields {
        held = true
        return [("held", .bool(true))]
    }

    package func resume() -> AckFields {
        held = false
        return [("held", .bool(false))]
    }

    /// Takes `ticks` fixed steps now; each step the animator skips because the world rests still counts
    /// 1/tick_hz of `time`. `afterStep` runs after every step (contact events are per step).
    package func step(ticks: Int, afterStep: () -> Void) throws(ProtocolError) -> AckFields {
        guard held else { throw ProtocolError(.badValue, "step needs a held world (send pause first)") }
        for _ in 0..<ticks {
            let before = animator.stepCount
            animator.step()
            if animator.stepCount == before { restTime += 1 / animator.stepHz }
            afterStep()
        }
        return [("ticks", .number(Double(ticks))), ("time", .number(time))]
    }
}
