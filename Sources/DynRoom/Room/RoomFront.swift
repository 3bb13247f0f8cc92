import NetProtocol

/// What a room needs from the front that holds the connections (docs/ARCHITECTURE.md, Rooms and threads):
/// bytes addressed to a client id, packed frames in each transport's shape, one transport fact for compact
/// and packed frames, and the counters of `/metrics`.
/// The front implements it on the loop thread; a room calls it only from the loop thread (a room running on
/// a worker keeps its output in `pending` instead).
package protocol RoomFront: AnyObject {
    /// Queues `bytes` for the client `client` (nothing when it has gone).
    func write(_ bytes: SharedBytes, kind: WriteKind, to client: Int)
    /// Flushes the replies queued in `seat` to its connection.
    func flushReplies(of seat: Seat)
    /// Queues one packed frame for `client` in the shape its transport sends (docs/PROTOCOL.md, "packed");
    /// returns the bytes queued (0 when it has gone).
    func writePacked(_ packed: PackedOutput, kind: WriteKind, to client: Int) -> Int
    /// True while a latest-only write to `client` waits unsent (the next one replaces it).
    func latestStillQueued(client: Int) -> Bool
    /// `dyn_ticks_total`.
    func ticked(_ n: UInt64)
    /// `dyn_ticks_skipped_total`: ticks the catch-up limit dropped.
    func skippedTicks(_ n: UInt64)
    /// `dyn_step_seconds`.
    func stepped(seconds: Double)
    /// `dyn_snapshot_bytes_total`.
    func sentSnapshot(bytes: Int, clients: Int)
    /// True when `client`'s transport takes packed frames as binary messages (WebSocket), not as lines.
    func takesBinaryFrames(client: Int) -> Bool
    /// `dyn_snapshot_encode_seconds_total`: thread CPU seconds spent encoding one batch's `mode` snapshots.
    func encodedSnapshots(_ mode: Subscription.Snapshots, seconds: Double)
    /// A resting room was woken (`Room.wake`, loop thread): the beat looks at it again from its next tick.
    func woke(_ room: Room)
}

extension RoomFront {
    /// A front without WebSockets sends lines.
    package func takesBinaryFrames(client: Int) -> Bool { false }

    /// A front without metrics keeps no count.
    package func encodedSnapshots(_ mode: Subscription.Snapshots, seconds: Double) {}

    /// A front that looks at every room on every beat needs no word of a wake-up.
    package func woke(_ room: Room) {}

    /// A front without WebSockets sends every packed frame as a `packed` line.
    package func writePacked(_ packed: PackedOutput, kind: WriteKind, to client: Int) -> Int {
        write(packed.line, kind: kind, to: client)
        return packed.line.count
    }
}
