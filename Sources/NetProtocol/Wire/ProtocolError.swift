/// The error codes of wire protocol v1 (docs/PROTOCOL.md). The raw value is the exact `code` string on the wire.
public enum ErrorCode: String, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case badMessage = "bad_message"
    case unknownType = "unknown_type"
    case badValue = "bad_value"
    case unknownBody = "unknown_body"
    case noBody = "no_body"
    case notDragging = "not_dragging"
    case lineTooLong = "line_too_long"
    case rateLimited = "rate_limited"
    case unauthorized
    case forbidden
    case serverFull = "server_full"
    case protocolMismatch = "protocol_mismatch"
    /// A `join` that would create a room beyond `--max-rooms` (docs/PROTOCOL.md, Rooms).
    case roomLimit = "room_limit"
    /// A join that needs the fleet's room directory while Redis cannot be reached (docs/PROTOCOL.md, A fleet
    /// of servers).
    case unavailable
}

/// A client message's `id`, echoed verbatim in the `ack`, `error` or `pong` that answers it.
///
/// A numeric id keeps its JSON text exactly as the client wrote it (`1.50` stays `1.50`), so the echo is
/// byte-identical and never loses precision. `number` must hold valid JSON number text; anything else is
/// written as a string so the output stays valid JSON.
public enum MessageID: Hashable, Sendable {
    case string(String)
    case number(String)
}

/// A protocol-level failure: the `code` and human-readable `message` of an `error` line, plus the `id` of the
/// message it answers when that message carried a valid one.
public struct ProtocolError: Error, Equatable, Sendable {
    public var code: ErrorCode
    public var message: String
    public var id: MessageID?

    public init(_ code: ErrorCode, _ message: String, id: MessageID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }
}
