import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket to `127.0.0.1` for tests that speak HTTP or WebSocket to the real server.
///
/// Guarantees: sends never raise SIGPIPE; every receive ends at its timeout; `isClosedByPeer` becomes true
/// once the peer closed (or reset) the connection; the descriptor is closed when the object goes away.
final class BlockingSocket {
    private(set) var fd: Int32
    private(set) var isClosedByPeer = false

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EndToEndError("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let code = errno
            Glibc.close(fd)
            fd = -1
            throw EndToEndError("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
    }

    deinit { close() }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw EndToEndError("send failed: errno \(errno)")
            }
            offset += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The bytes available within `timeout` seconds (empty on timeout or once the peer closed).
    func receive(timeout: Double) -> [UInt8] {
        guard fd >= 0, !isClosedByPeer else { return [] }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(max(0, timeout * 1000)))
        guard ready > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { return Array(chunk[0..<n]) }
        if n == 0 || (errno != EINTR && errno != EAGAIN) { isClosedByPeer = true }
        return []
    }

    /// Everything received until the peer closes, or until `timeout` seconds pass.
    func receiveUntilClosed(timeout: Double) -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        var all: [UInt8] = []
        while !isClosedByPeer, Date() < deadline {
            all += receive(timeout: max(0, deadline.timeIntervalSinceNow))
        }
        return all
    }

    /// Aborts with a reset (SO_LINGER 0), so the server sees ECONNRESET rather than an orderly FIN.
    func reset() {
        guard fd >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}
