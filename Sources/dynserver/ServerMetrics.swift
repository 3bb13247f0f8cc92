import NetProtocol

/// The server's counters for `GET /metrics`, updated on the loop thread as things happen.
///
/// Guarantees: counters only grow for the life of the process; label values are the protocol's own words
/// (transport names, command types, error codes), so the label sets stay small and known.
final class ServerMetrics {
    private(set) var connections: [String: UInt64] = ["tcp": 0, "websocket": 0]
    private(set) var commands: [String: UInt64] = [:]
    private(set) var errors: [String: UInt64] = [:]
    private(set) var snapshotBytes: UInt64 = 0
    /// Upper bounds of the `dyn_step_seconds` buckets (one physics step's wall time).
    static let stepBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25]
    private(set) var stepBucketCounts = [UInt64](repeating: 0, count: ServerMetrics.stepBuckets.count)
    private(set) var stepCount: UInt64 = 0
    private(set) var stepSum = 0.0
    /// Fixed ticks run by every room (at rest too), for `dyn_ticks_total`.
    private(set) var ticks: UInt64 = 0
    var roomsCreated: UInt64 = 0
    var roomsUnloaded: UInt64 = 0

    func ticked(_ n: UInt64) { ticks += n }

    func connected(transport: String) { connections[transport, default: 0] += 1 }
    func command(_ type: String) { commands[type, default: 0] += 1 }
    func error(_ code: ErrorCode) { errors[code.rawValue, default: 0] += 1 }
    func sentSnapshot(bytes: Int, clients: Int) { snapshotBytes += UInt64(bytes * clients) }

    func stepped(seconds: Double) {
        stepCount += 1
        stepSum += seconds
        for (i, bound) in Self.stepBuckets.enumerated() where seconds <= bound { stepBucketCounts[i] += 1 }
    }
}

extension Server {
    /// The `/metrics` body: every dyn_* family with its current value.
    func metricsText() -> String {
        var out = PrometheusText()
        out.family("dyn_clients", "gauge", "Clients connected now (TCP and WebSocket).")
        out.sample("dyn_clients", [], Double(sessions.count))
        out.family("dyn_connections_total", "counter", "Client connections accepted, by transport.")
        for (transport, n) in metrics.connections.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_connections_total", [("transport", transport)], Double(n))
        }
        out.family("dyn_ticks_total", "counter", "Fixed physics ticks run.")
        out.sample("dyn_ticks_total", [], Double(metrics.ticks))
        out.family("dyn_step_seconds", "histogram", "Wall time of one physics step.")
        for (i, bound) in ServerMetrics.stepBuckets.enumerated() {
            out.sample("dyn_step_seconds_bucket", [("le", PrometheusText.format(bound))], Double(metrics.stepBucketCounts[i]))
        }
        out.sample("dyn_step_seconds_bucket", [("le", "+Inf")], Double(metrics.stepCount))
        out.sample("dyn_step_seconds_sum", [], metrics.stepSum)
        out.sample("dyn_step_seconds_count", [], Double(metrics.stepCount))
        out.family("dyn_snapshot_bytes_total", "counter", "Snapshot bytes queued to clients (each client counted).")
        out.sample("dyn_snapshot_bytes_total", [], Double(metrics.snapshotBytes))
        out.family("dyn_commands_total", "counter", "Client commands decoded and accepted by the rate limit, by type.")
        for (type, n) in metrics.commands.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_commands_total", [("type", type)], Double(n))
        }
        out.family("dyn_errors_total", "counter", "Error messages sent to clients, by code.")
        for (code, n) in metrics.errors.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_errors_total", [("code", code)], Double(n))
        }
        out.family("dyn_bodies", "gauge", "Items in every loaded room now.")
        out.sample("dyn_bodies", [], Double(roomOrder.reduce(0) { $0 + $1.world.animator.itemCount }))
        out.family("dyn_world_paused", "gauge", "Loaded rooms at rest (not stepping) now (1 or 0 with main alone).")
        out.sample("dyn_world_paused", [], Double(roomOrder.filter { !$0.world.animator.isRunning }.count))
        out.family("dyn_rooms", "gauge", "Rooms loaded now, main included.")
        out.sample("dyn_rooms", [], Double(rooms.count))
        out.family("dyn_rooms_created_total", "counter", "Rooms created by a join.")
        out.sample("dyn_rooms_created_total", [], Double(metrics.roomsCreated))
        out.family("dyn_rooms_unloaded_total", "counter", "Rooms unloaded after --room-idle-s without clients.")
        out.sample("dyn_rooms_unloaded_total", [], Double(metrics.roomsUnloaded))
        return out.text
    }
}
