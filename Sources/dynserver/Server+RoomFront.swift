import DynRoom
import NetProtocol

/// The front's side of a room's output (docs/ARCHITECTURE.md, Rooms and threads): a room addresses bytes to
/// client ids; the front finds the session and writes to its transport, on the loop thread.
extension Server: RoomFront {
    func woke(_ room: Room) { joinBeat(run(of: room)) }

    func write(_ bytes: SharedBytes, kind: WriteKind, to client: Int) {
        guard let connection = sessions[client]?.connection else { return }
        countSuperseded(connection, kind: kind)
        connection.write(bytes, kind: kind)
    }

    func flushReplies(of seat: Seat) {
        if let session = sessions[seat.id] {
            session.flushReplies()
        } else {
            seat.replies.removeAll()
        }
    }

    func writePacked(_ packed: PackedOutput, kind: WriteKind, to client: Int) -> Int {
        guard let connection = sessions[client]?.connection else { return 0 }
        countSuperseded(connection, kind: kind)
        return connection.writePacked(packed, kind: kind)
    }

    /// A latest-only write while another still waits unsent replaces it: the client skips that state.
    private func countSuperseded(_ connection: any ClientTransport, kind: WriteKind) {
        if kind == .latestOnly, connection.hasQueuedLatestOnly { metrics.snapshotsSuperseded += 1 }
    }

    func latestStillQueued(client: Int) -> Bool {
        sessions[client]?.connection.hasQueuedLatestOnly ?? false
    }

    func ticked(_ n: UInt64) { metrics.ticked(n) }

    func stepped(seconds: Double) { metrics.stepped(seconds: seconds) }

    func skippedTicks(_ n: UInt64) { metrics.ticksSkipped += n }

    func sentSnapshot(bytes: Int, clients: Int) { metrics.sentSnapshot(bytes: bytes, clients: clients) }

    func takesBinaryFrames(client: Int) -> Bool { sessions[client]?.connection is WebSocketTransport }

    func encodedSnapshots(_ mode: Subscription.Snapshots, seconds: Double) { metrics.encodedSnapshots(mode, seconds: seconds) }
}
