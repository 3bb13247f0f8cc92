import NetProtocol

/// One connected client: its connection, framing state, identity, rights and rate limit.
///
/// Guarantees: replies produced while handling one read are queued in order and written after any `scene`
/// that the same read caused, so a client always sees the structure its command created before the ack.
final class ClientSession {
    let id: Int
    let connection: any ClientTransport
    var framer: LineFramer
    var name: String
    var bucket: TokenBucket
    /// Passed the `--token` check (or no token is required): may receive scenes and snapshots.
    var authorized: Bool
    /// Passed the `--admin-token` check (or none is set): may change the structure of every room.
    var serverAdmin: Bool
    /// Created its room or joined it with the room's `room_token`: may change that room's structure.
    var roomAdmin = false
    /// May change the structure of the room it is in (docs/PROTOCOL.md, Rooms: rights).
    var admin: Bool { serverAdmin || roomAdmin }
    /// The room it is in (exactly one at a time); `main` until a `join`.
    var room: Room
    /// The room named by `GET /ws?room=NAME` before the token `hello` let the session in, joined at that hello.
    var requestedRoom: String?
    /// What this client asked to receive (`subscribe`, or `hello`'s `subscribe` object).
    var subscription = Subscription()
    /// Its snapshot schedule and compact-frame baseline.
    var feed = ClientFeed()
    /// Bytes read but held back by the rate limit, and whether reading is paused.
    var throttle = ReadThrottle()
    var replies: [UInt8] = []
    let address: String
    /// True once the server decided to drop this client (no more reads are handled).
    var closing = false
    /// Where error replies are counted (`/metrics`).
    var metrics: ServerMetrics?

    init(id: Int, connection: any ClientTransport, maxLineBytes: Int, bucket: TokenBucket, authorized: Bool, admin: Bool,
         room: Room) {
        self.room = room
        self.id = id
        self.connection = connection
        self.framer = LineFramer(maxLineBytes: maxLineBytes)
        self.name = "client \(id)"
        self.bucket = bucket
        self.authorized = authorized
        self.serverAdmin = admin
        self.address = connection.peerDescription
    }

    func reply(_ message: ServerMessage) {
        if case .error(let error) = message { metrics?.error(error.code) }
        replies += message.encoded()
    }

    /// Hands the queued replies to the connection as one write.
    func flushReplies() {
        guard !replies.isEmpty else { return }
        connection.write(replies)
        replies.removeAll(keepingCapacity: true)
    }
}
