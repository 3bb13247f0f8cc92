import Foundation
import NetProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Hands a non-Sendable value to exactly one other thread. The caller guarantees that only one thread uses
/// the value at a time (the test thread waits for the worker before touching it again).
final class ThreadOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Counters shared between a worker thread and the test thread, behind a lock.
final class SharedCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Int] = [:]
    private var stopped = false

    func add(_ key: String, _ amount: Int = 1) { lock.withLock { values[key, default: 0] += amount } }
    subscript(key: String) -> Int { lock.withLock { values[key, default: 0] } }
    func stop() { lock.withLock { stopped = true } }
    var isStopped: Bool { lock.withLock { stopped } }
}

/// A raw TCP client socket for load generators: no line parsing, C-speed scanning, a reusable buffer, so a
/// flood costs the test process little CPU (the server, not the test, must be the thing under load).
final class RawSocket: PingAnswering {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var carry: [UInt8] = []
    /// Bytes `drain` has read so far.
    private(set) var receivedBytes = 0

    init(port: UInt16) throws {
        fd = try TCPSocket.connect(port: port)
    }

    deinit { Glibc.close(fd) }

    /// Sends all of `bytes`; false when the connection is gone.
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Sends what the kernel takes now without waiting; the count of bytes taken, or nil when the connection
    /// is gone. A server that stopped reading (backpressure) makes this return 0.
    func sendNow(_ bytes: ArraySlice<UInt8>) -> Int? {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if n >= 0 { return n }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Reads what arrives within `timeout` seconds and returns how many times each of `needles` occurred in
    /// it (occurrences split across reads are found too); nil once the peer closed.
    func drain(counting needles: [[UInt8]], timeout: Double) -> [Int]? {
        var found = [Int](repeating: 0, count: needles.count)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var wait = Int32(max(0, timeout * 1000))
        let keep = (needles.map(\.count).max() ?? 1) - 1
        while poll(&pfd, 1, wait) > 0 {
            wait = 0
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { return nil }
            if n < 0 { continue }
            receivedBytes += n
            let chunk = carry + buffer[0..<n]
            for (index, needle) in needles.enumerated() { found[index] += RawSocket.occurrences(of: needle, in: chunk) }
            carry = Array(chunk.suffix(keep))
        }
        return found
    }

    /// The bytes that arrive within `timeout` seconds (empty when none did); nil once the peer closed or
    /// reset the connection.
    func receive(timeout: Double) -> [UInt8]? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(max(0, timeout * 1000))) > 0 else { return [] }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 { return Array(buffer[0..<n]) }
        if n < 0, errno == EAGAIN || errno == EINTR { return [] }
        return nil
    }

    /// Reads until `needle` has arrived; false after `timeout` seconds or when the peer closed.
    func waitFor(_ needle: String, timeout: Double) -> Bool {
        let pattern = Array(needle.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            guard let found = drain(counting: [pattern], timeout: min(0.05, max(0, deadline.timeIntervalSinceNow))) else { return false }
            if found[0] > 0 { return true }
        } while Date() < deadline
        return false
    }

    /// Non-overlapping occurrences of `needle` in `haystack` (memchr + memcmp: C speed even in debug builds).
    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        haystack.withUnsafeBytes { raw in
            needle.withUnsafeBytes { pattern in
                guard let base = raw.baseAddress, let first = pattern.first, let pbase = pattern.baseAddress else { return 0 }
                var count = 0
                var offset = 0
                while raw.count - offset >= pattern.count,
                      let hit = memchr(base + offset, Int32(first), raw.count - offset - pattern.count + 1) {
                    let at = UnsafeRawPointer(hit) - base
                    if memcmp(hit, pbase, pattern.count) == 0 {
                        count += 1
                        offset = at + pattern.count
                    } else {
                        offset = at + 1
                    }
                }
                return count
            }
        }
    }
}

/// A client on its own thread that offers `linesPerSecond` command lines (in batches every 10 ms, sent as far
/// as the kernel takes them without blocking) and drains everything the server sends back, counting
/// `rate_limited` errors, acks and bytes received.
///
/// Guarantees: `stop()` returns once the thread has ended; counts are final after it.
final class Flooder: @unchecked Sendable {
    let counters = SharedCounters()
    private let socket: RawSocket
    private let line: [UInt8]
    private let linesPerSecond: Int
    private let done = DispatchSemaphore(value: 0)

    /// `line` is one command line without its newline.
    init(port: UInt16, line: String, linesPerSecond: Int) throws {
        self.socket = try RawSocket(port: port)
        self.line = Array((line + "\n").utf8)
        self.linesPerSecond = linesPerSecond
    }

    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.start()
    }

    /// Stops sending, drains the answers still on their way for half a second, and waits for the thread.
    func stop() {
        counters.stop()
        done.wait()
    }

    private static let limited = Array(#""code":"rate_limited""#.utf8)
    private static let acks = Array(#"{"type":"ack""#.utf8)

    private func run() {
        let perBatch = max(1, linesPerSecond / 100)
        let batch = Array([[UInt8]](repeating: line, count: perBatch).joined())
        // Offered at the given rate, sent as fast as the kernel takes it: a server that stops reading holds
        // the rest here (what was offered but not taken is counted as `offered` only).
        var unsent: ArraySlice<UInt8> = []
        var sentBytes = 0
        var next = Date()
        while !counters.isStopped {
            if Date() >= next {
                if unsent.count < 4 * batch.count { unsent += batch }
                counters.add("offered", perBatch)
                next = next.addingTimeInterval(0.01)
            }
            if !unsent.isEmpty {
                guard let n = socket.sendNow(unsent) else { return counters.add("send failures") }
                unsent = unsent.dropFirst(n)
                let before = sentBytes / line.count
                sentBytes += n
                counters.add("sent", sentBytes / line.count - before)
                counters.add("sent bytes", n)
            }
            guard drain(for: max(0, min(0.01, next.timeIntervalSinceNow))) else { return }
        }
        _ = drain(for: 0.5)
        counters.add("received bytes", socket.receivedBytes)
    }

    /// False once the server closed the connection.
    private func drain(for seconds: Double) -> Bool {
        guard let counts = socket.drain(counting: [Flooder.limited, Flooder.acks], timeout: seconds) else { return false }
        counters.add("rate_limited", counts[0])
        counters.add("acks", counts[1])
        return true
    }
}

extension RawSocket {
    func sendMessage(_ text: String) throws {
        guard send(Array(text.utf8) + [0x0A]) else { throw EndToEndError("send failed: the connection is gone") }
    }

    func awaitMessage(containing needle: String, timeout: Double) -> Bool { waitFor(needle, timeout: timeout) }
}
