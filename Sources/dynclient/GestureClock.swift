/// The clock the terminal client times the hand with (how fast a drag moved when it was released, so how
/// hard it flings; see `PointerTrack`).
///
/// Guarantees: by default the time is the event loop's (milliseconds, as read when the mouse report is
/// handled). With `DYN_GESTURE_STEP_MS=N` in the environment (N a whole number, 1 to 1000), the time is
/// instead N ms times the number of mouse reports handled so far: a scripted stroke then has the same speed
/// however promptly a busy machine delivered its reports. The end-to-end tests set it; a person never does.
struct GestureClock: Sendable {
    static let variable = "DYN_GESTURE_STEP_MS"

    /// Milliseconds per mouse report, or nil for the event loop's time.
    let stepMs: UInt64?
    private var reports: UInt64 = 0

    init(stepMs: UInt64? = nil) { self.stepMs = stepMs }

    init(environment: [String: String]) {
        let step = environment[Self.variable].flatMap { UInt64($0) }
        self.init(stepMs: step.flatMap { (1...1000).contains($0) ? $0 : nil })
    }

    /// The time of `event`: counts it when it is a mouse report and the clock steps per report.
    mutating func time(of event: InputEvent, loopMs: UInt64) -> UInt64 {
        guard let stepMs else { return loopMs }
        if case .mouse = event { reports += 1 }
        return reports * stepMs
    }
}
