import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Raw sockets for the edge suites: connections from a chosen loopback source address (so one test can be
/// two peers, 127.0.0.1 and 127.0.0.2), and reads that tell an orderly end (FIN) from a reset.
///
/// Guarantees: every wait ends at its deadline; sends never raise SIGPIPE; `EdgeSocket` closes its
/// descriptor when it goes away. One thread may send while another reads (each direction of a socket is
/// its own stream in the kernel), hence `@unchecked Sendable`; `close` must come after both are done.
final class EdgeSocket: @unchecked Sendable {
    enum Ending: Equatable { case fin, reset, timeout }

    private(set) var fd: Int32

    /// Connects to `127.0.0.1:port` from `source` (any 127.x.y.z address works on Linux loopback).
    init(port: UInt16, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EndToEndError("socket() failed: errno \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = bound == 0 ? withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } : -1
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            fd = -1
            throw EndToEndError("connect from \(source) to 127.0.0.1:\(port) failed: errno \(code)")
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

    /// Everything received until the peer ends the connection, and how it ended.
    func readToEnd(timeout: Double) -> (bytes: [UInt8], ending: Ending) {
        let deadline = Date().addingTimeInterval(timeout)
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (all, .timeout) }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                all += chunk[0..<n]
            } else if n == 0 {
                return (all, .fin)
            } else if errno == ECONNRESET {
                return (all, .reset)
            } else if errno != EINTR && errno != EAGAIN {
                return (all, .reset)
            }
        }
    }

    /// True once the peer has ended the connection (a read would return end of stream or an error).
    func isEndedByPeer() -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// Sends `request` from `source` and reads the answer to the end.
    static func exchange(port: UInt16, _ request: String, from source: String = "127.0.0.1",
                         timeout: Double = 10) throws -> (reply: HTTPReply?, ending: Ending) {
        let socket = try EdgeSocket(port: port, from: source)
        try socket.send(request)
        let (bytes, ending) = socket.readToEnd(timeout: timeout)
        return (HTTPReply(bytes), ending)
    }
}

/// Client frames a broken or hostile WebSocket peer sends, byte by byte as RFC 6455 5.2 lays them out —
/// the very frames wslay refuses to build (a control frame over 125 bytes, a length not in its shortest
/// form, a 64-bit length with its top bit set). Masked with an all-zero key, so the payload reads as given.
enum HostileFrame {
    /// `first` is the FIN/RSV/opcode byte; `length` the 7-bit length field; `extended` the bytes after it.
    static func raw(first: UInt8, length: UInt8, extended: [UInt8] = [], payload: [UInt8] = []) -> [UInt8] {
        [first, 0x80 | length] + extended + [0, 0, 0, 0] + payload
    }

    /// A frame with a correct, shortest length field for `payload` (up to 65 535 bytes).
    static func frame(first: UInt8, payload: [UInt8]) -> [UInt8] {
        if payload.count < 126 { return raw(first: first, length: UInt8(payload.count), payload: payload) }
        return raw(first: first, length: 126, extended: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)], payload: payload)
    }
}
