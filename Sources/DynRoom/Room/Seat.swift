import NetProtocol

/// A client's place in a room (docs/ARCHITECTURE.md, Rooms and threads): who it is and what it may do and
/// receive — never its connection. The front owns one per session and moves it from room to room; a room
/// holds the seats of its members and addresses its output to their client ids.
///
/// Guarantees: replies queue here in the order they were made and leave only through the front's flush, after
/// any `scene` the same read caused; every error reply is counted once, when it is made (`onError`).
package final class Seat {
    package let id: Int
    package var name: String
    /// Passed the `--token` check (or no token is required): may receive scenes and snapshots.
    package var authorized: Bool
    /// Passed the `--admin-token` check (or none is set): may change the structure of every room.
    package var serverAdmin: Bool
    /// Created its room or joined it with the room's `room_token`: may change that room's structure.
    package var roomAdmin = false
    /// May change the structure of the room it is in (docs/PROTOCOL.md, Rooms: rights).
    package var admin: Bool { serverAdmin || roomAdmin }
    /// What this client asked to receive (`subscribe`, or `hello`'s `subscribe` object).
    package var subscription = Subscription()
    /// Replies not yet handed to the connection.
    package var replies: [UInt8] = []
    /// True once the front decided to drop this client: it receives nothing more.
    package var closing = false
    /// Counts an error reply (the front's `/metrics`).
    package var onError: ((ErrorCode) -> Void)?

    package init(id: Int, authorized: Bool, serverAdmin: Bool) {
        self.id = id
        self.name = "client \(id)"
        self.authorized = authorized
        self.serverAdmin = serverAdmin
    }

    /// Queues a reply (written by the front's flush).
    package func reply(_ message: ServerMessage) {
        if case .error(let error) = message { onError?(error.code) }
        replies += message.encoded()
    }
}
