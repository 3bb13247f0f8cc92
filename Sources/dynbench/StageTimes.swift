import Dynamics

/// `dynbench physics --stages`: where a step's time goes, by `StepStage`. Hooked to
/// `DynamicAnimator.onStepStage`, it charges the time between two stage starts (and from the last one to the
/// end of `step()`) to the earlier stage, on the run's clock, and reports each stage's mean milliseconds per
/// timed step and its share of the total. Reading the clock ~10 times a step adds a little time of its own,
/// spread over the stages: compare shares, and take whole-step medians from a run without `--stages`.
final class StageTimes {
    private let clock: StepClock
    private var totals = [Double](repeating: 0, count: StepStage.allCases.count)
    private var current: StepStage?
    private var since = 0.0
    private var steps = 0
    /// Charge nothing while false (the warm-up steps).
    var recording = false

    init(clock: StepClock) { self.clock = clock }

    /// Attaches to `animator`; call `stepEnded()` after each `step()`.
    func attach(to animator: DynamicAnimator) {
        animator.onStepStage = { [unowned self] stage in self.begin(stage) }
    }

    private func begin(_ stage: StepStage) {
        let now = clock.nowMs()
        charge(until: now)
        current = stage
        since = now
    }

    func stepEnded() {
        charge(until: clock.nowMs())
        if recording && current != nil { steps += 1 }
        current = nil
    }

    private func charge(until now: Double) {
        guard recording, let stage = current, let k = StepStage.allCases.firstIndex(of: stage) else { return }
        totals[k] += now - since
    }

    /// `"stages_ms_mean":{...},"stages_share":{...}` for the run's JSON line.
    var json: String {
        let n = Double(max(steps, 1))
        let sum = totals.reduce(0, +)
        let cases = StepStage.allCases.enumerated()
        let ms = cases.map { "\"\($0.element.rawValue)\":\(Stats.fixed(totals[$0.offset] / n))" }
        let share = cases.map { "\"\($0.element.rawValue)\":\(Stats.fixed(sum > 0 ? totals[$0.offset] / sum : 0))" }
        return "\"stages_ms_mean\":{\(ms.joined(separator: ","))},\"stages_share\":{\(share.joined(separator: ","))}"
    }
}
