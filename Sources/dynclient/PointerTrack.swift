import NetProtocol

/// The pointer's recent positions, for the fling at the end of a drag.
///
/// Guarantees: `velocity(atMs:)` is the mean velocity (points per second) over the samples of the last
/// `windowMs`, zero when the pointer has not moved for `stillMs` (a drag released after stopping does not
/// fling) or when fewer than two samples are that recent; at most `capacity` samples are kept.
struct PointerTrack: Equatable, Sendable {
    private(set) var samples: [Sample] = []

    struct Sample: Equatable, Sendable {
        var ms: UInt64
        var point: Point
    }

    static let windowMs: UInt64 = 120
    static let stillMs: UInt64 = 80
    static let capacity = 16

    mutating func add(_ point: Point, atMs ms: UInt64) {
        samples.append(Sample(ms: ms, point: point))
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    mutating func reset() { samples.removeAll() }

    func velocity(atMs now: UInt64) -> (vx: Double, vy: Double) {
        guard let last = samples.last, now &- last.ms <= Self.stillMs, now >= last.ms else { return (0, 0) }
        let recent = samples.filter { now - $0.ms <= Self.windowMs }
        guard let first = recent.first, last.ms > first.ms else { return (0, 0) }
        let seconds = Double(last.ms - first.ms) / 1000
        return ((last.point.x - first.point.x) / seconds, (last.point.y - first.point.y) / seconds)
    }
}
