#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whatever stdin has ready without ever blocking the event loop, for the headless mode.
///
/// Why polling: stdin may be a terminal, a pipe or a regular file, and libuv's stream handles (what
/// NetProtocol wraps) refuse regular files. `poll` with a zero timeout says whether a `read` would block,
/// so the descriptor's flags stay untouched (no `O_NONBLOCK` leaking into the shell that shares it).
///
/// Guarantees: `readAvailable` returns `.data` with at most `chunk` bytes, `.idle` when nothing is ready,
/// and `.end` once at end of input or on a read error; it never blocks.
struct StdinReader {
    enum Result: Equatable {
        case data([UInt8])
        case idle
        case end
    }

    let fd: Int32
    let chunk: Int

    init(fd: Int32 = 0, chunk: Int = 64 * 1024) {
        self.fd = fd
        self.chunk = chunk
    }

    func readAvailable() -> Result {
        var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiter, 1, 0)
        if ready < 0 { return errno == EINTR ? .idle : .end }
        if ready == 0 { return .idle }
        if waiter.revents & Int16(POLLIN | POLLHUP | POLLERR) == 0 {
            return waiter.revents & Int16(POLLNVAL) != 0 ? .end : .idle
        }
        var buffer = [UInt8](repeating: 0, count: chunk)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunk) }
        if count > 0 { return .data(Array(buffer.prefix(count))) }
        if count < 0, errno == EINTR || errno == EAGAIN { return .idle }
        return .end
    }
}
