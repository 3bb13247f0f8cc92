import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A crowd of slowloris connections to the HTTP port: each sends its request one byte at a time, a byte a
/// second, and — when `reconnect` — opens a new connection as soon as the server closes one, the way a
/// determined attacker does. Runs on its own thread until `stop()`.
///
/// Guarantees: `closedByServer` counts every crowd connection the server ended; at most `size` connections
/// are open at once; `stop()` returns after the thread ended and every crowd socket is closed.
final class SlowCrowd: @unchecked Sendable {
    let port: UInt16
    let size: Int
    let reconnect: Bool
    private let lock = NSLock()
    private var fds: [Int32] = []
    private var sentBytes: [Int] = []
    private var stopping = false
    private var closed = 0
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)
    private static let request = Array("GET /healthz HTTP/1.1\r\nHost: slow\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 4096)

    init(port: UInt16, size: Int, reconnect: Bool) {
        self.port = port
        self.size = size
        self.reconnect = reconnect
    }

    var closedByServer: Int { lock.withLock { closed } }

    /// Opens the whole crowd (each connection sends its first byte), then starts trickling.
    func start() {
        var opened: [Int32] = []
        for _ in 0..<size {
            let fd = Self.open(port: port)
            if fd >= 0 { opened.append(fd) }
        }
        fds = opened
        sentBytes = [Int](repeating: 1, count: opened.count)
        let thread = Thread { [self] in run() }
        self.thread = thread
        thread.start()
    }

    /// Ends the crowd; may be called more than once.
    func stop() {
        lock.withLock { stopping = true }
        if thread != nil { done.wait() }
        thread = nil
        for fd in fds where fd >= 0 { Glibc.close(fd) }
        fds.removeAll()
    }

    /// A non-blocking connection that has sent the request's first byte (-1 on failure).
    private static func open(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            return -1
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var first = request[0]
        _ = Glibc.send(fd, &first, 1, Int32(MSG_NOSIGNAL))
        return fd
    }

    private func run() {
        var lastTrickle = Date()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopping }) {
            var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&pfds, nfds_t(pfds.count), 50)
            for (i, pfd) in pfds.enumerated() where pfd.revents != 0 && fds[i] >= 0 {
                let n = chunk.withUnsafeMutableBytes { recv(fds[i], $0.baseAddress, $0.count, 0) }
                guard n <= 0, !(n < 0 && (errno == EAGAIN || errno == EINTR)) else { continue }
                Glibc.close(fds[i])
                lock.withLock { closed += 1 }
                fds[i] = reconnect ? Self.open(port: port) : -1
                sentBytes[i] = 1
            }
            if Date().timeIntervalSince(lastTrickle) >= 1 {
                lastTrickle = Date()
                for i in fds.indices where fds[i] >= 0 && sentBytes[i] < Self.request.count {
                    var byte = Self.request[sentBytes[i]]
                    if Glibc.send(fds[i], &byte, 1, Int32(MSG_NOSIGNAL)) == 1 { sentBytes[i] += 1 }
                }
            }
        }
        done.signal()
    }
}
