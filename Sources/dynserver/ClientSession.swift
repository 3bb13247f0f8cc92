import DynRoom
import NetProtocol

/// One connected client: its connection, framing state, identity, rights and rate limit.
///
/// Guarantees: replies produced while handling one read are queued in order and written after any `scene`
/// that the same read caused, so a client always sees the structure its command created before the ack.
final class ClientSession {
    let id: Int
    let connection: any ClientTransport
    var framer: LineFramer
    var bucket: TokenBucket
    /// Its place in its room: name, rights, subscription, feed and queued replies (the room sees only this).
    let seat: Seat
    var name: String {
        get { seat.name }
        set { seat.name = newValue }
    }
    var authorized: Bool {
        get { seat.authorized }
        set { seat.authorized = newValue }
    }
    var serverAdmin: Bool {
        get { seat.serverAdmin }
        set { seat.serverAdmin = newValue }
    }
    var roomAdmin: Bool {
        get { seat.roomAdmin }
        set { seat.roomAdmin = newValue }
    }
    var admin: Bool { seat.admin }
    var subscription: Subscription {
        get { seat.subscription }
        set { seat.subscription = newValue }
    }
    /// True once the server decided to drop this client (no more reads are handled).
    var closing: Bool {
        get { seat.closing }
        set { seat.closing = newValue }
    }
    /// The room it is in (exactly one at a time); `main` until a `join`.
    var room: Room
    /// The room named by `GET /ws?room=NAME` before the token `hello` let the session in, joined at that hello.
    var requestedRoom: String?
    /// Bytes read but held back by the rate limit, and whether reading is paused.
    var throttle = ReadThrottle()
    let address: String
    /// Where error replies are counted (`/metrics`).
    var metrics: ServerMetrics? {
        didSet { seat.onError = { [weak metrics] code in metrics?.error(code) } }
    }

    init(id: Int, connection: any ClientTransport, maxLineBytes: Int, bucket: TokenBucket, authorized: Bool, admin: Bool,
         room: Room) {
        self.room = room
        self.id = id
        self.connection = connection
        self.framer = LineFramer(maxLineBytes: maxLineBytes)
        self.bucket = bucket
        self.seat = Seat(id: id, authorized: authorized, serverAdmin: admin)
        self.address = connection.peerDescription
    }

    func reply(_ message: ServerMessage) { seat.reply(message) }

    /// Hands the queued replies to the connection as one write.
    func flushReplies() {
        guard !seat.replies.isEmpty else { return }
        connection.write(seat.replies)
        seat.replies.removeAll(keepingCapacity: true)
    }
}
