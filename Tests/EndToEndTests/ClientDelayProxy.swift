import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP proxy that makes a slow, jittery link: every chunk is delivered `oneWayMs` ± `jitterMs`
/// (uniformly) after it arrived, in order (as TCP would: a chunk never overtakes the one before it).
/// Serves one connection at a time, the next one after the previous ended.
///
/// Guarantees: `port` is where clients connect; bytes reach the server at 127.0.0.1:`serverPort` unchanged
/// and in order, each direction delayed on its own; everything is closed when this object goes away.
final class ClientDelayProxy: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let serverPort: UInt16
    private let oneWayMs: Double
    private let jitterMs: Double
    private let lock = NSLock()
    private var closed = false
    private var sockets: [Int32] = []

    init(serverPort: UInt16, oneWayMs: Double, jitterMs: Double) throws {
        self.serverPort = serverPort
        self.oneWayMs = oneWayMs
        self.jitterMs = jitterMs
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = TCPSocket.address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
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

    func close() {
        lock.lock()
        let all = sockets + [listener]
        closed = true
        sockets.removeAll()
        lock.unlock()
        for fd in all { shutdown(fd, Int32(SHUT_RDWR)); Glibc.close(fd) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let server = try? TCPSocket.connect(port: serverPort) else {
                Glibc.close(client)
                continue
            }
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            lock.lock()
            if closed {
                lock.unlock()
                Glibc.close(client)
                Glibc.close(server)
                return
            }
            sockets += [client, server]
            lock.unlock()
            Thread.detachNewThread { [self] in pump(from: client, to: server) }
            Thread.detachNewThread { [self] in pump(from: server, to: client) }
        }
    }

    /// Reads chunks and hands each to a delivery queue with its due time; ends both sides when one ends.
    private func pump(from source: Int32, to target: Int32) {
        let queue = DispatchQueue(label: "dyn.proxy.delivery")
        var lastDue = DispatchTime.now()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            let chunk = Array(buffer[0..<count])
            let delay = oneWayMs + Double.random(in: -jitterMs...jitterMs)
            var due = DispatchTime.now() + .microseconds(Int(delay * 1000))
            if due < lastDue { due = lastDue }
            lastDue = due
            queue.asyncAfter(deadline: due) {
                var offset = 0
                while offset < chunk.count {
                    // MSG_NOSIGNAL: a peer gone must not raise SIGPIPE in the test process.
                    let written = chunk[offset...].withUnsafeBytes { send(target, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
        // After the last chunk: a deadline equal to that chunk's could run first (asyncAfter does not order
        // equal deadlines), ending a short HTTP answer before its bytes.
        queue.asyncAfter(deadline: lastDue + .milliseconds(1)) { shutdown(target, Int32(SHUT_WR)) }
    }
}
