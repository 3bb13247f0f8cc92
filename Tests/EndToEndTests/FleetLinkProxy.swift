import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP proxy in front of Redis for one server of a fleet, that can freeze the link: while
/// frozen nothing is forwarded either way and no new connection is accepted (bytes wait in the kernel, as
/// on a network that stopped delivering), and on `thaw` everything held is delivered, late, in order.
///
/// Guarantees: `port` is where the server connects; bytes reach 127.0.0.1:`targetPort` unchanged and in
/// order; a side that closes closes the other; everything is closed when this object goes away.
final class FleetLinkProxy: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let targetPort: UInt16
    private let lock = NSLock()
    private var frozenFlag = false
    private var closed = false
    private var sockets: [Int32] = []

    init(targetPort: UInt16) throws {
        self.targetPort = targetPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = TCPSocket.address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            Glibc.close(fd)
            throw EndToEndError("proxy cannot listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { close() }

    var url: String { "redis://127.0.0.1:\(port)" }

    func freeze() { set(frozen: true) }
    func thaw() { set(frozen: false) }

    private func set(frozen: Bool) {
        lock.lock()
        frozenFlag = frozen
        lock.unlock()
    }

    private var frozen: Bool {
        lock.lock()
        defer { lock.unlock() }
        return frozenFlag
    }

    private var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    func close() {
        lock.lock()
        let all = sockets + [listener]
        closed = true
        sockets.removeAll()
        lock.unlock()
        for fd in all { shutdown(fd, Int32(SHUT_RDWR)); Glibc.close(fd) }
    }

    private func acceptLoop() {
        while !isClosed {
            if frozen || !TCPSocket.waitReadable(listener, timeout: 0.05) {
                usleep(20_000)
                continue
            }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let upstream = try? TCPSocket.connect(port: targetPort) else {
                Glibc.close(client)
                continue
            }
            lock.lock()
            sockets += [client, upstream]
            lock.unlock()
            Thread.detachNewThread { [self] in pump(client, upstream) }
        }
    }

    /// Forwards both ways until either side ends; while frozen it reads nothing.
    private func pump(_ a: Int32, _ b: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            shutdown(a, Int32(SHUT_RDWR))
            shutdown(b, Int32(SHUT_RDWR))
        }
        while !isClosed {
            if frozen {
                usleep(20_000)
                continue
            }
            var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 50) >= 0 else { return }
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let from = index == 0 ? a : b
                let to = index == 0 ? b : a
                let n = read(from, &buffer, buffer.count)
                guard n > 0, (try? TCPSocket.sendAll(to, Array(buffer[0..<n]))) != nil else { return }
            }
        }
    }
}
