import ArgumentParser
import Foundation
import NetProtocol
import NetLoop

/// A blocking TCP connection to a dynserver for benchmarks that drive many rooms one after another:
/// send lines, read lines with a deadline (poll), and skip to the message a predicate wants.
final class BenchSocket {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ValidationError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw ValidationError("connect: \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ValidationError("send: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    func send(_ line: String) throws { try send(Array((line + "\n").utf8)) }

    /// The next line (without its newline), or nil after `timeout` seconds or when the server closed.
    func nextLine(timeout: Double) -> [UInt8]? {
        let deadline = EventLoop.hrtimeNs + UInt64(timeout * 1e9)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let now = EventLoop.hrtimeNs
            guard now < deadline else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32((deadline - now) / 1_000_000) + 1) > 0 else { continue }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Reads until a message satisfies `predicate`; nil on timeout.
    func waitFor(timeout: Double, _ predicate: (ServerMessage) -> Bool) -> ServerMessage? {
        let deadline = EventLoop.hrtimeNs + UInt64(timeout * 1e9)
        while EventLoop.hrtimeNs < deadline {
            guard let line = nextLine(timeout: Double(deadline &- EventLoop.hrtimeNs) / 1e9) else { return nil }
            if let message = line.withUnsafeBytes({ ServerMessage.decode($0) }), predicate(message) { return message }
        }
        return nil
    }

    /// The room's tick, from the `pong` answering a ping with `id`.
    func tick(id: Int, timeout: Double = 30) -> UInt64? {
        try? send(#"{"type":"ping","id":\#(id)}"#)
        guard case .pong(_, let tick, _)? = waitFor(timeout: timeout, {
            if case .pong(_, _, let echo) = $0 { echo == .number(String(id)) } else { false }
        }) else { return nil }
        return tick
    }

    /// Discards whatever has arrived so far (keep-alives of a client that is not being measured).
    func drain() {
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 0) > 0, recv(fd, &chunk, chunk.count, 0) > 0 else { break }
        }
        buffer.removeAll()
    }
}

/// Resident memory of a process in bytes (VmRSS of /proc/PID/status).
func processRSSBytes(_ pid: Int32) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { $0 * 1024 }
    }
    return nil
}
