#if canImport(Glibc)
import Glibc
#endif

/// How many non-finite numbers (NaN, ±infinity) the wire encoders met in this process.
///
/// The wire never carries a non-finite number: `ByteCursor`, `JSONWriter` and the compact pose table write
/// one as `0` so that a line always parses. That zero must not hide a fault upstream (a physics step that
/// produced NaN), so every encoder notes each one here, and the server reports the total as
/// `dyn_nonfinite_values_total` (docs/PROTOCOL.md, "Metrics"): a correct server keeps it at 0.
///
/// Guarantees: `note()` and `total` may be called from any thread (a pthread mutex, taken only on the cold
/// path of a non-finite value and when the total is read); the count never decreases.
public enum NonFiniteValues {
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()
    nonisolated(unsafe) private static var count: UInt64 = 0

    /// Counts one non-finite value met by an encoder (written as 0).
    @inline(never) public static func note() {
        pthread_mutex_lock(lock)
        count &+= 1
        pthread_mutex_unlock(lock)
    }

    /// Every non-finite value noted so far in this process.
    public static var total: UInt64 {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return count
    }
}
