#if canImport(Glibc)
import Glibc
#endif

/// The CPU time the calling thread has used (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`): what the encoding of
/// snapshots costs whoever runs it, a worker or the loop, however loaded the machine (docs/PROTOCOL.md,
/// `dyn_snapshot_encode_seconds_total`).
enum ThreadCPUClock {
    /// This thread's CPU time in ns; only differences of two readings on the same thread mean anything.
    static var nanoseconds: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
