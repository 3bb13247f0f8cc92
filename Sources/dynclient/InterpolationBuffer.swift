import NetProtocol

/// The snapshots a client renders from, played back a little behind the server so that network jitter
/// never shows as motion jumping back and forth.
///
/// How: every snapshot's offset `arrival - server time` is measured; the smallest one over the last
/// `windowMs` is the fastest the network delivered. Lateness is how much later than that a snapshot
/// arrived; the delay is one snapshot interval plus the 90th percentile of lateness (plus a small
/// margin), so nine snapshots in ten arrive before they are needed. The playback clock is
/// `now - fastest offset - delay`, interpolating between the two snapshots around it.
///
/// Guarantees: the playback time never goes backwards while the world moves (a growing delay slows
/// playback instead), so no frame shows an item jumping back; it never extrapolates beyond the latest
/// snapshot; a paused or held world, a tick that goes backwards (a new server) or a gap of more than
/// `maxTickGap` ticks restarts the buffer, showing the latest snapshot as it is; the delay stays within
/// `minimumDelayMs ... maximumDelayMs`.
struct InterpolationBuffer: Sendable {
    private(set) var snapshots: [Snapshot] = []
    private var samples: [(arrivalMs: Double, offsetMs: Double)] = []
    private var intervals: [Double] = []
    /// Starts at 0 so that the first measurement sets it.
    private(set) var delayMs: Double = 0
    private var playbackTime: Double?
    private var lastAdvanceMs: Double?

    static let windowMs = 3000.0
    static let maxSnapshots = 64
    static let maxTickGap: UInt64 = 30
    static let minimumDelayMs = 10.0
    static let maximumDelayMs = 500.0
    static let marginMs = 5.0
    /// How fast the delay may shrink, in ms per second of wall time (growing is immediate).
    static let shrinkRatePerSecond = 20.0

    var latest: Snapshot? { snapshots.last }

    /// The current playback position in server seconds.
    var playbackServerTime: Double? { playbackTime }

    /// Whether playback shows the latest snapshot as it is (nothing to interpolate).
    private var isStill: Bool {
        guard let latest else { return true }
        return latest.paused || latest.held || snapshots.count < 2
    }

    mutating func add(_ snapshot: Snapshot, arrivalMs: Double) {
        if let latest, latest.paused || latest.held || snapshot.tick <= latest.tick
            || snapshot.tick - latest.tick > Self.maxTickGap {
            // A new start: nothing before this snapshot belongs to the motion after it.
            snapshots.removeAll()
            samples.removeAll()
            playbackTime = nil
        }
        if let latest = snapshots.last, snapshot.time > latest.time { record(interval: (snapshot.time - latest.time) * 1000) }
        snapshots.append(snapshot)
        if snapshots.count > Self.maxSnapshots { snapshots.removeFirst(snapshots.count - Self.maxSnapshots) }
        samples.append((arrivalMs, arrivalMs - snapshot.time * 1000))
        samples.removeAll { $0.arrivalMs < arrivalMs - Self.windowMs }
        let target = targetDelayMs
        if target > delayMs { delayMs = target }
    }

    /// Forgets motion (a reconnect must not interpolate across the gap).
    mutating func restart() {
        let keep = snapshots.last
        snapshots = keep.map { [$0] } ?? []
        samples.removeAll()
        playbackTime = nil
    }

    /// The delay the measurements ask for now.
    var targetDelayMs: Double {
        let interval = intervals.isEmpty ? 33.3 : intervals.sorted()[intervals.count / 2]
        guard let fastest = samples.map(\.offsetMs).min() else { return interval + Self.marginMs }
        let lateness = samples.map { $0.offsetMs - fastest }.sorted()
        let p90 = lateness[min(lateness.count - 1, Int(Double(lateness.count) * 0.9))]
        return min(Self.maximumDelayMs, max(Self.minimumDelayMs, interval + p90 + Self.marginMs))
    }

    /// Moves playback to wall time `nowMs` (milliseconds on the arrival clock).
    mutating func advance(toMs nowMs: Double) {
        if let last = lastAdvanceMs, nowMs > last {
            let target = targetDelayMs
            if target < delayMs { delayMs = max(target, delayMs - Self.shrinkRatePerSecond * (nowMs - last) / 1000) }
        }
        lastAdvanceMs = nowMs
        guard !isStill, let latest, let fastest = samples.map(\.offsetMs).min() else {
            playbackTime = latest?.time
            return
        }
        var time = (nowMs - fastest - delayMs) / 1000
        if let playbackTime { time = max(time, playbackTime) }
        playbackTime = min(time, latest.time)
        // Snapshots wholly behind playback are no longer needed (keep one before it).
        if let playbackTime, let firstNeeded = snapshots.lastIndex(where: { $0.time <= playbackTime }), firstNeeded > 0 {
            snapshots.removeFirst(firstNeeded)
        }
    }

    /// Each item's pose at the playback time: between the two snapshots around it, or the nearest end.
    func poses(where include: (Int) -> Bool) -> [Int: Pose] {
        guard let latest else { return [:] }
        var result: [Int: Pose] = [:]
        result.reserveCapacity(latest.bodies.count)
        guard !isStill, let time = playbackTime, time < latest.time,
              let after = snapshots.firstIndex(where: { $0.time > time }), after > 0 else {
            let shown = isStill ? latest : (playbackTime.flatMap { time in snapshots.last { $0.time <= time } } ?? snapshots[0])
            for body in shown.bodies where include(body.id) { result[body.id] = Pose(x: body.x, y: body.y, angle: body.angle) }
            return result
        }
        let start = snapshots[after - 1], end = snapshots[after]
        let fraction = (time - start.time) / (end.time - start.time)
        var startByID: [Int: BodyState] = [:]
        for body in start.bodies { startByID[body.id] = body }
        for body in end.bodies where include(body.id) {
            guard let from = startByID[body.id] else {
                result[body.id] = Pose(x: body.x, y: body.y, angle: body.angle)
                continue
            }
            result[body.id] = Pose(x: from.x + (body.x - from.x) * fraction, y: from.y + (body.y - from.y) * fraction,
                                   angle: from.angle + Angle.shortestDelta(from: from.angle, to: body.angle) * fraction)
        }
        return result
    }

    private mutating func record(interval: Double) {
        intervals.append(interval)
        if intervals.count > 30 { intervals.removeFirst() }
    }
}
