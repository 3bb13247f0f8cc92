import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one socket core under every test client (`LineClient`, `BlockingSocket` and so `WebSocketClient` and
/// `HTTPReply`, `RawSocket`, the delay proxy, `RedisServerProcess`): connecting, sending everything, waiting
/// for input with a deadline, resetting.
///
/// Guarantees: `connect` returns a connected blocking descriptor with TCP_NODELAY (SO_RCVBUF set before
/// connecting when asked, so the window is small from the first byte) or throws with the errno; `sendAll`
/// sends every byte or throws, never raising SIGPIPE and retrying on EINTR; `waitReadable` ends at its
/// timeout; `resetAndClose` makes the peer see a reset (SO_LINGER 0), not an orderly FIN.
enum TCPSocket {
    /// A blocking TCP connection to `host:port` (IPv4 dotted quad).
    static func connect(host: String = "127.0.0.1", port: UInt16, receiveBufferBytes: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EndToEndError("socket() failed: errno \(errno)") }
        if let size = receiveBufferBytes {
            var value = size
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.address(host: host, port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let code = errno
            Glibc.close(fd)
            throw EndToEndError("connect to \(host):\(port) failed: errno \(code)")
        }
        return fd
    }

    /// The IPv4 socket address of `host:port`.
    static func address(host: String = "127.0.0.1", port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    /// Sends every byte of `bytes`, or throws once the connection is gone.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
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

    /// True when `fd` has input (or EOF) within `timeout` seconds.
    static func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&pfd, 1, Int32(max(0, timeout * 1000)))
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }

    /// A port nothing listens on now: bound to port 0, read back, closed (for programs without a port 0 of their own: Redis, or a server restarted on the same ports).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EndToEndError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = TCPSocket.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw EndToEndError("cannot find a free port: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// SO_LINGER 0 then close: the peer sees ECONNRESET.
    static func resetAndClose(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(fd)
    }
}

/// A connection that speaks the protocol's text messages, so one `answersPing` serves every transport.
protocol PingAnswering {
    /// Sends one protocol message (a line on TCP, a text frame on WebSocket).
    func sendMessage(_ text: String) throws
    /// True once a message containing `needle` arrived within `timeout` seconds.
    func awaitMessage(containing needle: String, timeout: Double) -> Bool
}

extension PingAnswering {
    /// True when a `ping` with a fresh id gets its `pong` within `timeout`: the connection is usable.
    func answersPing(timeout: Double = 5) -> Bool {
        let id = "alive-\(UInt32.random(in: 0...UInt32.max))"
        guard (try? sendMessage(#"{"type":"ping","id":"\#(id)"}"#)) != nil else { return false }
        // Only the pong echoes this id: the ping is well formed and pings are never refused.
        return awaitMessage(containing: #""id":"\#(id)""#, timeout: timeout)
    }
}
