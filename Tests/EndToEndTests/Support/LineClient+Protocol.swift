import Foundation
import NetProtocol
import Testing

/// Protocol-level conveniences over `LineClient`: the join sequence, request/answer pairs matched by `id`,
/// and typed waits for scenes and snapshots. Every wait is bounded and returns nil when nothing matched.
extension LineClient {
    /// Reads `welcome`, then (when the server sends it at once) `scene` and the first `snapshot`.
    /// Returns nil for a part that did not arrive in the expected order.
    func join(timeout: Double = 10) -> (welcome: Welcome?, scene: SceneInfo?, snapshot: Snapshot?) {
        guard case let .welcome(welcome)? = next(timeout: timeout) else { return (nil, nil, nil) }
        guard case let .scene(scene)? = next(timeout: timeout) else { return (welcome, nil, nil) }
        guard case let .snapshot(snapshot)? = next(timeout: timeout) else { return (welcome, scene, nil) }
        return (welcome, scene, snapshot)
    }

    /// Sends `command` with `id` and returns the `ack`, `error` or `pong` carrying that id (others skipped).
    func request(_ command: ClientCommand, id: MessageID, timeout: Double = 10) throws -> ServerMessage? {
        try send(ClientMessage(id: id, command))
        return answer(to: id, timeout: timeout)
    }

    /// Sends `command` with the numeric id `id` and returns the answer's fields when it was an `ack`.
    func ack(_ command: ClientCommand, id: Int, timeout: Double = 10) throws -> [(String, JSONValue)]? {
        guard case let .ack(_, fields)? = try request(command, id: .number(String(id)), timeout: timeout) else { return nil }
        return fields
    }

    /// The next `ack`, `error` or `pong` that echoes `id`.
    func answer(to id: MessageID, timeout: Double = 10) -> ServerMessage? {
        waitFor(timeout: timeout) { message in
            switch message {
            case let .ack(echo, _): return echo == id
            case let .error(error): return error.id == id
            case let .pong(_, _, echo): return echo == id
            default: return false
            }
        }
    }

    /// The next `error` line (any id).
    func nextError(timeout: Double = 5) -> ProtocolError? {
        guard case let .error(error)? = waitFor(timeout: timeout, { if case .error = $0 { true } else { false } }) else { return nil }
        return error
    }

    /// The next `scene`.
    func nextScene(timeout: Double = 5) -> SceneInfo? {
        guard case let .scene(scene)? = waitFor(timeout: timeout, { if case .scene = $0 { true } else { false } }) else { return nil }
        return scene
    }

    /// The first `scene` read after the client had read `count` scenes: the one already read if a wait
    /// skipped over it (the server sends a change's `scene` before its `ack`), else the next one.
    func scene(after count: Int, timeout: Double = 5) -> SceneInfo? {
        if sceneCount > count { return lastScene }
        return nextScene(timeout: timeout)
    }

    /// The next `snapshot` that satisfies `predicate`.
    func nextSnapshot(timeout: Double = 5, where predicate: (Snapshot) -> Bool = { _ in true }) -> Snapshot? {
        let found = waitFor(timeout: timeout) { message in
            if case let .snapshot(snapshot) = message { return predicate(snapshot) }
            return false
        }
        guard case let .snapshot(snapshot)? = found else { return nil }
        return snapshot
    }

    /// The newest snapshot of the next `seconds` of world time (see `snapshots(for:)`).
    func lastSnapshot(after seconds: Double) -> Snapshot? {
        snapshots(for: seconds).last
    }

    /// The current server tick, read from the `pong` to a ping: snapshots with a greater tick were taken
    /// after every command this client sent before.
    func currentTick(timeout: Double = 5) throws -> UInt64? {
        let id = MessageID.string("tick-\(UInt32.random(in: 0...UInt32.max))")
        guard case let .pong(_, tick, _)? = try request(.ping(t: nil), id: id, timeout: timeout) else { return nil }
        return tick
    }
}

extension Snapshot {
    /// The state of `body` in this snapshot.
    func body(_ id: Int) -> BodyState? { bodies.first { $0.id == id } }
}

extension Array where Element == (String, JSONValue) {
    /// The numeric result field `name` of an `ack`.
    func number(_ name: String) -> Double? { first { $0.0 == name }?.1.number }
}

extension LineClient {
    /// Sends one raw JSON line that carries `id` and returns the answer echoing it.
    func request(_ line: String, id: MessageID, timeout: Double = 10) throws -> ServerMessage? {
        try send(line)
        return answer(to: id, timeout: timeout)
    }

    /// Sends one raw JSON line carrying the numeric `id` and returns the ack's fields (nil for anything else).
    func ack(_ line: String, id: Int, timeout: Double = 10) throws -> [(String, JSONValue)]? {
        guard case let .ack(_, fields)? = try request(line, id: .int(id), timeout: timeout) else { return nil }
        return fields
    }

    /// Sends one raw JSON line carrying `id` and returns the error answering it (nil for anything else).
    func error(_ line: String, id: MessageID, timeout: Double = 10) throws -> ProtocolError? {
        guard case let .error(error)? = try request(line, id: id, timeout: timeout) else { return nil }
        return error
    }

    /// Snapshots taken after everything this client sent so far, over the next `seconds` of world time
    /// (counted in ticks from the pong's tick; see `snapshots(for:)`).
    func snapshotsAfterNow(for seconds: Double) throws -> [Snapshot] {
        let tick = try #require(try currentTick())
        return snapshots(for: seconds, fromTick: tick).filter { $0.tick > tick }
    }
}
