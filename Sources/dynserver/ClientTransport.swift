import NetProtocol
import NetLoop

/// What the session logic needs from a client's connection, whatever carries it (a TCP stream of JSON
/// lines, or a WebSocket whose text frames are the messages): queued writes of whole messages, the size
/// of what is still unsent, write progress, and closing.
///
/// Guarantees expected of a conformer: writes are delivered in order, a `latestOnly` write replaces an
/// earlier one not yet handed to the kernel, `close()` may be called more than once, and nothing is
/// written after close.
protocol ClientTransport: AnyObject {
    /// Queues one or more complete protocol messages (each ending in `"\n"`).
    func write(_ bytes: SharedBytes, kind: WriteKind)
    /// Queues one packed frame (docs/PROTOCOL.md, "packed") in this transport's shape; returns the bytes queued.
    @discardableResult func writePacked(_ packed: PackedOutput, kind: WriteKind) -> Int
    /// Bytes queued but not yet written to the peer.
    var pendingBytes: Int { get }
    /// True while a `latestOnly` write waits unsent (the next one replaces it, so the peer never gets it).
    var hasQueuedLatestOnly: Bool { get }
    /// How long queued bytes have waited without any write progress (0 when idle).
    var stalledForMs: UInt64 { get }
    /// Stops taking input from the peer (backpressure: the kernel and flow control hold it back).
    func pauseReading()
    /// Takes input again after `pauseReading`.
    func resumeReading()
    /// Sends what is queued (a WebSocket adds its Close frame), then closes; gives up after `timeoutMs`.
    func closeAfterFlush(timeoutMs: UInt64)
    /// Closes at once, dropping what is unsent.
    func closeNow()
    /// The peer's address for logs.
    var peerDescription: String { get }
    /// `tcp` or `websocket`, for logs and metrics.
    var transportName: String { get }
}

extension ClientTransport {
    func write(_ bytes: [UInt8], kind: WriteKind = .reliable) { write(SharedBytes(bytes), kind: kind) }
    func write(_ bytes: SharedBytes) { write(bytes, kind: .reliable) }

    /// A stream of lines gets a `packed` line: the frame in base64.
    @discardableResult func writePacked(_ packed: PackedOutput, kind: WriteKind) -> Int {
        let line = packed.line
        write(line, kind: kind)
        return line.count
    }
}

extension TCPConnection: ClientTransport {
    func resumeReading() { try? resumeReadingStream() }
    func closeAfterFlush(timeoutMs: UInt64) { closeAfterFlush(timeoutMs: timeoutMs, then: nil) }
    func closeNow() { close() }
    func pauseReading() { pauseReadingStream() }
    var peerDescription: String { peer?.description ?? "?" }
    var transportName: String { "tcp" }
}
