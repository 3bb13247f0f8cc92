#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocking, complete writes to a file descriptor (the terminal or a pipe on stdout).
///
/// Guarantees: every byte is written unless the descriptor fails; `EINTR` is retried and `EAGAIN` (a
/// descriptor someone made non-blocking) waits with `poll` instead of spinning or dropping output; the
/// result is false when the reader is gone (`EPIPE`) or another error stops the write.
enum FDWriter {
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    @discardableResult
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard var cursor = buffer.baseAddress else { return true }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(fd, cursor, remaining)
            if written > 0 {
                cursor += written
                remaining -= written
                continue
            }
            let failure = errno
            if written < 0, failure == EINTR { continue }
            if written < 0, failure == EAGAIN || failure == EWOULDBLOCK {
                var waiter = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiter, 1, 1000)
                continue
            }
            return false
        }
        return true
    }
}
