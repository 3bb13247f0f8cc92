#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// What `dynbench physics` times a step with. `wall` (default, what the Box2D harness uses): elapsed
/// monotonic time. `cpu`: the CPU time of the stepping thread, which a busy shared machine inflates far less
/// (another process running in between is not counted).
enum StepClock: String, ExpressibleByArgument, CaseIterable, Sendable {
    case wall
    case cpu

    /// Milliseconds since an arbitrary origin, on this clock.
    func nowMs() -> Double {
        var ts = timespec()
        clock_gettime(self == .cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
    }
}
