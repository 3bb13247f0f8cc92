import DynRoom
import NetProtocol

/// The server's counters for `GET /metrics`, updated on the loop thread as things happen.
///
/// Guarantees: counters only grow for the life of the process and start at 0 with it; label values are
/// the protocol's own words (transport names, command types, error codes, HTTP statuses), and every known
/// one has a series from the start (0 until it happens), so `rate()` and alerts see the first event; an
/// unknown label value that still occurs gets its series when it first does.
final class ServerMetrics {
    /// The `type` of every command of docs/PROTOCOL.md, as `ClientCommand.typeName` spells it.
    static let commandTypes = ["anchor", "attach", "boundary", "bounds", "collision", "detach", "drag", "field", "gravity",
                               "group", "hello", "pause", "ping", "push", "remove", "resume", "scene", "set", "snap",
                               "spawn", "step", "subscribe", "tap", "unfield", "ungroup", "velocity"]

    private(set) var connections: [String: UInt64] = ["tcp": 0, "websocket": 0]
    private(set) var commands: [String: UInt64] = Dictionary(uniqueKeysWithValues: ServerMetrics.commandTypes.map { ($0, 0) })
    private(set) var errors: [String: UInt64] = Dictionary(uniqueKeysWithValues: ErrorCode.allCases.map { ($0.rawValue, 0) })
    private(set) var snapshotBytes: UInt64 = 0
    /// Thread CPU seconds spent encoding snapshots, by mode (`full`, `compact`, `packed`), on the workers and
    /// the loop, summed on the loop as each batch is written.
    private(set) var snapshotEncodeSeconds: [String: Double] = ["full": 0, "compact": 0, "packed": 0]
    /// Snapshots and frames a newer one replaced while they still waited unsent for a slow client (the
    /// client skips them; docs/PROTOCOL.md, backpressure).
    var snapshotsSuperseded: UInt64 = 0
    /// Upper bounds of the `dyn_step_seconds` buckets (one physics step's wall time).
    static let stepBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25]
    private(set) var stepBucketCounts = [UInt64](repeating: 0, count: ServerMetrics.stepBuckets.count)
    private(set) var stepCount: UInt64 = 0
    private(set) var stepSum = 0.0
    /// Fixed ticks run by every room in this process (at rest too, not while held), for `dyn_ticks_total`;
    /// a `--state` restore continues the snapshots' tick but not this count.
    private(set) var ticks: UInt64 = 0
    var roomsCreated: UInt64 = 0
    var roomsUnloaded: UInt64 = 0
    private(set) var httpResponses: [Int: UInt64] = Dictionary(uniqueKeysWithValues: HTTPResponse.statuses.map { ($0, 0) })
    private(set) var httpEvictions: UInt64 = 0
    private(set) var httpTimeouts: UInt64 = 0
    /// In a fleet (docs/DEPLOY.md): joins and `/r/NAME` requests sent to the owning server, by how; rooms
    /// dropped here because another server took their lease.
    private(set) var fleetRedirects: [String: UInt64] = ["join": 0, "http": 0, "lease_lost": 0]
    var fleetRoomsLost: UInt64 = 0
    /// Part L (docs/ARCHITECTURE.md, Rooms and threads): ticks the rooms' catch-up limit dropped, the ticks each
    /// room's last job left undone, and how late the beat's timer fired.
    var ticksSkipped: UInt64 = 0
    private(set) var roomTicksBehind: [String: UInt64] = [:]
    static let lagBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    private(set) var lagBucketCounts = [UInt64](repeating: 0, count: ServerMetrics.lagBuckets.count)
    private(set) var lagCount: UInt64 = 0
    private(set) var lagSum = 0.0

    func roomBehind(_ name: String, ticks: UInt64) { roomTicksBehind[name] = ticks }

    /// The beat's timer fired `seconds` after it was due.
    func loopLagged(seconds: Double) {
        lagCount += 1
        lagSum += seconds
        for (i, bound) in Self.lagBuckets.enumerated() where seconds <= bound { lagBucketCounts[i] += 1 }
    }
    /// Renewals and saves Redis refused because their epoch was no longer the room's (SPEC Part M fencing),
    /// and saves not confirmed (refused, failed or lost; retried).
    var fleetEpochRefusals: UInt64 = 0
    var fleetSavesFailed: UInt64 = 0
    /// The fleet's list (docs/DEPLOY.md, The list): rounds read, room entries they carried, whole reads.
    var fleetListRounds: UInt64 = 0
    var fleetListEntries: UInt64 = 0
    var fleetListFullReads: UInt64 = 0

    func ticked(_ n: UInt64) { ticks += n }

    func connected(transport: String) { connections[transport, default: 0] += 1 }
    func command(_ type: String) { commands[type, default: 0] += 1 }
    func error(_ code: ErrorCode) { errors[code.rawValue, default: 0] += 1 }
    func sentSnapshot(bytes: Int, clients: Int) { snapshotBytes += UInt64(bytes * clients) }
    func encodedSnapshots(_ mode: Subscription.Snapshots, seconds: Double) { snapshotEncodeSeconds[mode.rawValue, default: 0] += seconds }
    func httpResponded(status: Int) { httpResponses[status, default: 0] += 1 }
    func httpEvicted(_ count: Int) { httpEvictions += UInt64(count) }
    func httpRequestTimedOut() { httpTimeouts += 1 }
    func fleetRedirected(_ how: String) { fleetRedirects[how, default: 0] += 1 }

    /// One physics step that ran (the world was moving): a tick at rest is no step and is not recorded.
    func stepped(seconds: Double) {
        stepCount += 1
        stepSum += seconds
        for (i, bound) in Self.stepBuckets.enumerated() where seconds <= bound { stepBucketCounts[i] += 1 }
    }
}

extension Server {
    /// The `/metrics` body: every dyn_* family with its current value, then the process_* ones.
    func metricsText() -> String {
        var out = PrometheusText()
        out.single("dyn_clients", "gauge", "Clients connected now (TCP and WebSocket).", Double(sessions.count))
        out.family("dyn_connections_total", "counter", "Client connections accepted, by transport.")
        for (transport, n) in metrics.connections.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_connections_total", [("transport", transport)], Double(n))
        }
        out.single("dyn_ticks_total", "counter", "Fixed ticks this process ran in every room (also at rest, not while held); the snapshots' tick may start higher after a --state restore.", Double(metrics.ticks))
        out.family("dyn_step_seconds", "histogram", "Wall time of one physics step; ticks at rest or held run no step and are not recorded.")
        for (i, bound) in ServerMetrics.stepBuckets.enumerated() {
            out.sample("dyn_step_seconds_bucket", [("le", PrometheusText.format(bound))], Double(metrics.stepBucketCounts[i]))
        }
        out.sample("dyn_step_seconds_bucket", [("le", "+Inf")], Double(metrics.stepCount))
        out.sample("dyn_step_seconds_sum", [], metrics.stepSum)
        out.sample("dyn_step_seconds_count", [], Double(metrics.stepCount))
        out.single("dyn_snapshot_bytes_total", "counter", "Snapshot bytes queued to clients (each client counted).", Double(metrics.snapshotBytes))
        out.family("dyn_snapshot_encode_seconds_total", "counter", "Thread CPU seconds spent encoding snapshots and frames, by mode (full, compact, packed).")
        for (mode, seconds) in metrics.snapshotEncodeSeconds.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_snapshot_encode_seconds_total", [("mode", mode)], seconds)
        }
        out.single("dyn_snapshots_superseded_total", "counter", "Snapshots and frames replaced by a newer one while still unsent to a slow client (each client counted).", Double(metrics.snapshotsSuperseded))
        out.family("dyn_commands_total", "counter", "Client commands decoded and accepted by the rate limit, by type.")
        for (type, n) in metrics.commands.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_commands_total", [("type", type)], Double(n))
        }
        out.family("dyn_errors_total", "counter", "Error messages sent to clients, by code.")
        for (code, n) in metrics.errors.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_errors_total", [("code", code)], Double(n))
        }
        out.family("dyn_room_step_seconds", "histogram", "Wall time of one physics step of any room, on the workers (the same steps as dyn_step_seconds).")
        for (i, bound) in ServerMetrics.stepBuckets.enumerated() {
            out.sample("dyn_room_step_seconds_bucket", [("le", PrometheusText.format(bound))], Double(metrics.stepBucketCounts[i]))
        }
        out.sample("dyn_room_step_seconds_bucket", [("le", "+Inf")], Double(metrics.stepCount))
        out.sample("dyn_room_step_seconds_sum", [], metrics.stepSum)
        out.sample("dyn_room_step_seconds_count", [], Double(metrics.stepCount))
        out.single("dyn_room_ticks_behind", "gauge", "The most ticks any loaded room is behind its clock (its last job ran out of time with them due).", Double(roomOrder.map { metrics.roomTicksBehind[$0.name] ?? 0 }.max() ?? 0))
        out.single("dyn_ticks_skipped_total", "counter", "Ticks dropped because a room fell further behind its clock than the catch-up limit.", Double(metrics.ticksSkipped))
        out.family("dyn_loop_lag_seconds", "histogram", "How late the loop handled the beat's due timer.")
        for (i, bound) in ServerMetrics.lagBuckets.enumerated() {
            out.sample("dyn_loop_lag_seconds_bucket", [("le", PrometheusText.format(bound))], Double(metrics.lagBucketCounts[i]))
        }
        out.sample("dyn_loop_lag_seconds_bucket", [("le", "+Inf")], Double(metrics.lagCount))
        out.sample("dyn_loop_lag_seconds_sum", [], metrics.lagSum)
        out.sample("dyn_loop_lag_seconds_count", [], Double(metrics.lagCount))
        out.single("dyn_nonfinite_values_total", "counter", "NaN or infinite numbers the wire encoders met and wrote as 0 (a correct server keeps it at 0).", Double(NonFiniteValues.total))
        out.single("dyn_bodies", "gauge", "Items in every loaded room now (dynamic, static and kinematic).", Double(roomOrder.reduce(0) { $0 + $1.summary.bodies }))
        out.single("dyn_world_paused", "gauge", "Loaded rooms at rest or held now: no physics step runs in them (1 or 0 with main alone).", Double(roomOrder.filter { $0.summary.paused || $0.summary.held }.count))
        out.single("dyn_rooms", "gauge", "Rooms loaded now, main included.", Double(rooms.count))
        out.single("dyn_rooms_created_total", "counter", "Rooms created by a join.", Double(metrics.roomsCreated))
        out.single("dyn_rooms_unloaded_total", "counter", "Rooms unloaded after --room-idle-s without clients.", Double(metrics.roomsUnloaded))
        appendHTTPMetrics(to: &out)
        appendFleetMetrics(to: &out)
        appendProcessMetrics(to: &out)
        return out.text
    }

    private func appendHTTPMetrics(to out: inout PrometheusText) {
        out.family("dyn_http_responses_total", "counter", "HTTP responses sent on the HTTP port, by status (101: WebSocket upgrades).")
        for (code, n) in metrics.httpResponses.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_http_responses_total", [("code", String(code))], Double(n))
        }
        out.single("dyn_http_pending", "gauge", "HTTP connections still sending their request now.", Double(http?.pendingCount ?? 0))
        out.single("dyn_http_evictions_total", "counter", "Incomplete HTTP requests closed to make room for newer connections.", Double(metrics.httpEvictions))
        out.single("dyn_http_timeouts_total", "counter", "HTTP requests closed for not completing within the deadline.", Double(metrics.httpTimeouts))
    }

    /// Only with `--cluster`: a server on its own has no fleet to report on.
    private func appendFleetMetrics(to out: inout PrometheusText) {
        guard let cluster else { return }
        out.single("dyn_fleet_redis_up", "gauge", "1 while the fleet's room directory (Redis) answers, else 0 (joins of other rooms get unavailable).", cluster.problem == nil ? 1 : 0)
        out.single("dyn_fleet_rooms_owned", "gauge", "Rooms this server holds the lease of now (main is every server's own and not counted).", Double(rooms.keys.filter { $0 != Room.mainName }.count))
        out.family("dyn_fleet_redirects_total", "counter", "Clients sent to the server that owns their room: a join answered with redirect, a /r/NAME page answered 307, or members of a room whose lease was lost.")
        for (how, n) in metrics.fleetRedirects.sorted(by: { $0.key < $1.key }) {
            out.sample("dyn_fleet_redirects_total", [("via", how)], Double(n))
        }
        out.single("dyn_fleet_rooms_lost_total", "counter", "Rooms dropped here because another server took their lease (this server missed its renewals).", Double(metrics.fleetRoomsLost))
        out.single("dyn_fleet_epoch_refusals_total", "counter", "Renewals and saves Redis refused because another server claimed the room since (its epoch moved on).", Double(metrics.fleetEpochRefusals))
        out.single("dyn_fleet_saves_failed_total", "counter", "Saves of a room's state that Redis did not confirm (refused, failed or lost with the connection); each is retried.", Double(metrics.fleetSavesFailed))
        out.single("dyn_fleet_rooms_fenced", "gauge", "Rooms held here now because their lease deadline passed without a confirmed renewal (no steps, commands unavailable).", Double(cluster.fencedRooms))
        out.single("dyn_fleet_list_rounds_total", "counter", "Rounds of the fleet's room list read from Redis (every 3 s, and when someone asks).", Double(metrics.fleetListRounds))
        out.single("dyn_fleet_list_entries_total", "counter", "Room entries those rounds carried: only rooms changed since the last round, except in whole reads.", Double(metrics.fleetListEntries))
        out.single("dyn_fleet_list_full_reads_total", "counter", "Rounds that read the whole list (the first, after a reconnect, or after Redis lost its change log).", Double(metrics.fleetListFullReads))
        out.single("dyn_fleet_redis_latency_seconds", "gauge", "Round-trip time of the last command Redis answered.", Double(cluster.redis.lastLatencyMs) / 1000)
    }

    private func appendProcessMetrics(to out: inout PrometheusText) {
        let process = ProcessMetrics.read()
        let families: [(String, String, String, Double?)] = [
            ("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", process.cpuSeconds),
            ("process_open_fds", "gauge", "Number of open file descriptors.", process.openFDs),
            ("process_max_fds", "gauge", "Maximum number of open file descriptors.", process.maxFDs),
            ("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", process.virtualBytes),
            ("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", process.residentBytes),
            ("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", process.startTimeSeconds),
        ]
        for (name, type, help, value) in families {
            guard let value else { continue }
            out.family(name, type, help)
            out.sample(name, [], value)
        }
    }
}
