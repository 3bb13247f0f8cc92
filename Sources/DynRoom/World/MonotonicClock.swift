#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock a room reads (the one libuv's `uv_hrtime` reads, so the front's times and a room's
/// compare), without libuv: a room runs on a worker thread and touches no loop.
package enum MonotonicClock {
    /// Nanoseconds of CLOCK_MONOTONIC.
    package static var nowNs: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}
