import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A blocking POSIX TCP client that speaks line-delimited JSON, for driving a real `dynserver` from tests.
///
/// Guarantees: lines of any length are reassembled (scenes and snapshots can exceed 64 KB); a trailing `\r` is
/// stripped; every wait ends at its timeout even while lines keep streaming in, and returns nil when nothing
/// came (or the server closed the connection, after which `isClosedByPeer` is true); writes never raise
/// SIGPIPE; the socket is closed when the object goes away. Built on `TCPSocket`.
final class LineClient: PingAnswering {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 256 * 1024)
    /// True once the server closed the connection (read returned 0 or an error).
    private(set) var isClosedByPeer = false
    /// The newest `scene` this client has read, also when a wait skipped over it.
    private(set) var lastScene: SceneInfo?
    /// How many `scene` messages this client has read so far.
    private(set) var sceneCount = 0
    /// The server's `tick_hz`, from the `welcome` this client read (60, the default, until then).
    private(set) var tickHz: Double = 60

    /// Connects to `127.0.0.1:port`. `receiveBufferBytes` shrinks the kernel receive buffer (set before
    /// connecting, so the window is small from the first byte) to make a client that never reads stall early.
    init(host: String = "127.0.0.1", port: UInt16, receiveBufferBytes: Int32? = nil) throws {
        fd = try TCPSocket.connect(host: host, port: port, receiveBufferBytes: receiveBufferBytes)
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    // MARK: sending

    /// Sends raw bytes exactly as given (no newline added).
    func sendRaw(_ bytes: [UInt8]) throws {
        try TCPSocket.sendAll(fd, bytes)
    }

    /// Sends one line; the newline is added.
    func send(_ line: String) throws {
        try sendRaw(Array((line + "\n").utf8))
    }

    /// Sends one encoded client message.
    func send(_ message: ClientMessage) throws {
        try sendRaw(message.encoded())
    }

    // MARK: receiving

    /// The next line without its newline (and `\r`), or nil after `timeout` seconds or when the server closed.
    func nextLine(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let line = popLine() { return line }
            if isClosedByPeer { return nil }
            guard TCPSocket.waitReadable(fd, timeout: deadline.timeIntervalSinceNow) else { return nil }
            fill()
        }
    }

    /// The next server message; lines that are not a valid server message are recorded as test issues
    /// and skipped.
    func next(timeout: Double = 5) -> ServerMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if let message = ServerMessage.decode(line) {
                if case let .scene(scene) = message {
                    lastScene = scene
                    sceneCount += 1
                }
                if case let .welcome(welcome) = message, welcome.tickHz > 0 { tickHz = welcome.tickHz }
                return message
            }
            Issue.record("undecodable server line: \(line.prefix(300))")
        }
        return nil
    }

    /// Skips messages until one satisfies `predicate`; nil if none did within `timeout` seconds.
    func waitFor(timeout: Double = 5, _ predicate: (ServerMessage) -> Bool) -> ServerMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if predicate(message) { return message }
        }
        return nil
    }

    /// Every snapshot of the next `seconds` of *world* time (other messages are skipped): read until one is
    /// `seconds × tick_hz` ticks past `fromTick` (default: the first snapshot read), so the window is the same
    /// on a fast and a loaded machine. Waits with a deadline (ten times the window, plus 10 s); a world that
    /// stopped sending (held, or a dead connection) ends it with what came. A paused world's keep-alives
    /// advance the tick too, one a second.
    func snapshots(for seconds: Double, fromTick: UInt64? = nil) -> [Snapshot] {
        let deadline = Date().addingTimeInterval(seconds * 10 + 10)
        let span = UInt64((seconds * tickHz).rounded())
        var result: [Snapshot] = []
        var start = fromTick
        while Date() < deadline, let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard case let .snapshot(snapshot) = message else { continue }
            if start == nil { start = snapshot.tick }
            result.append(snapshot)
            if let start, snapshot.tick >= start + span { break }
        }
        return result
    }

    /// The `tick` of every snapshot line received during the next `seconds`, read from the line's prefix
    /// without decoding the bodies: cheap enough to count large snapshots at full rate in a debug build.
    /// Stops early after the first tick that satisfies `until`.
    func snapshotTicks(for seconds: Double, until: (UInt64) -> Bool = { _ in false }) -> [UInt64] {
        let deadline = Date().addingTimeInterval(seconds)
        let prefix = #"{"type":"snapshot","tick":"#
        var ticks: [UInt64] = []
        while Date() < deadline, let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            guard line.hasPrefix(prefix), let tick = UInt64(line.dropFirst(prefix.count).prefix { $0.isNumber }) else { continue }
            ticks.append(tick)
            if until(tick) { break }
        }
        return ticks
    }

    /// Every line received until the server closes the connection (or `timeout` seconds pass).
    func linesUntilClosed(timeout: Double = 5) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while Date() < deadline, let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) { lines.append(line) }
        return lines
    }

    // MARK: closing

    /// Aborts the connection: SO_LINGER 0 then close, so the server sees a reset, not an orderly FIN.
    func reset() {
        guard fd >= 0 else { return }
        TCPSocket.resetAndClose(fd)
        fd = -1
    }

    /// Closes the socket (orderly FIN).
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    private func popLine() -> String? {
        // memchr and pointer copies: a debug build must keep up with ~2 MB/s of 70 KB snapshot lines.
        let found: Int? = buffer.withUnsafeBytes { raw in
            guard start < raw.count, let base = raw.baseAddress,
                  let hit = memchr(base + start, 0x0A, raw.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        guard let newline = found else { return nil }
        var end = newline
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = buffer.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
        start = newline + 1
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return line
    }

    private func fill() {
        if start > 0, start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            chunk.withUnsafeBytes { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
            isClosedByPeer = true
        }
    }
}

extension LineClient {
    func sendMessage(_ text: String) throws { try send(text) }

    func awaitMessage(containing needle: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if line.contains(needle) { return true }
        }
        return false
    }
}
