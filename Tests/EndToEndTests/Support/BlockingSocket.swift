import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket to `127.0.0.1` for tests that speak HTTP or WebSocket to the real server.
///
/// Guarantees: sends never raise SIGPIPE; every receive ends at its timeout; `isClosedByPeer` becomes true
/// once the peer closed (or reset) the connection; the descriptor is closed when the object goes away.
/// Built on `TCPSocket`.
final class BlockingSocket {
    private(set) var fd: Int32
    private(set) var isClosedByPeer = false

    /// `receiveBufferBytes` shrinks the kernel receive buffer, as `LineClient`'s does (a client slow to read).
    init(host: String = "127.0.0.1", port: UInt16, receiveBufferBytes: Int32? = nil) throws {
        fd = try TCPSocket.connect(host: host, port: port, receiveBufferBytes: receiveBufferBytes)
    }

    deinit { close() }

    func send(_ bytes: [UInt8]) throws { try TCPSocket.sendAll(fd, bytes) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The bytes available within `timeout` seconds (empty on timeout or once the peer closed).
    func receive(timeout: Double) -> [UInt8] {
        guard fd >= 0, !isClosedByPeer else { return [] }
        guard TCPSocket.waitReadable(fd, timeout: timeout) else { return [] }
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
        TCPSocket.resetAndClose(fd)
        fd = -1
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}
