#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NetProtocol

/// What the client knows about the shared world: the latest `welcome` and `scene`, and the last two
/// snapshots with the loop time each arrived at.
///
/// Guarantees: `poses(atMs:)` interpolates every item between the two latest snapshots, so motion advances
/// smoothly at the render rate while staying one snapshot interval behind the server: at the arrival time
/// of the latest snapshot it returns the previous snapshot's poses, one server interval later the latest
/// poses, and it never extrapolates beyond them; angles take the short way round; an item present only in
/// the latest snapshot, a paused world, a gap in ticks (reconnect) or a non-increasing tick shows the latest
/// poses as they are. Items in a snapshot but not in the scene are never drawn (the scene is the structure).
struct WorldModel {
    private(set) var welcome: Welcome?
    private(set) var scene: SceneInfo?
    private(set) var bodiesByID: [Int: BodyInfo] = [:]
    private(set) var latest: Snapshot?
    private(set) var previous: Snapshot?
    private var latestArrivalMs: UInt64 = 0
    /// Largest tick gap still interpolated; a longer gap (a reconnect, a long pause) jumps.
    static let maxInterpolatedTickGap: UInt64 = 30

    mutating func apply(welcome: Welcome) {
        self.welcome = welcome
        previous = nil
        latest = nil
    }

    mutating func apply(scene: SceneInfo) {
        self.scene = scene
        bodiesByID = Dictionary(scene.bodies.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    mutating func apply(snapshot: Snapshot, arrivalMs: UInt64) {
        if let latest, snapshot.tick > latest.tick, snapshot.tick - latest.tick <= Self.maxInterpolatedTickGap,
           !latest.paused {
            previous = latest
        } else {
            previous = nil
        }
        latest = snapshot
        latestArrivalMs = arrivalMs
    }

    /// Forgets motion (not structure) when the connection drops, so a reconnect does not interpolate
    /// across the gap.
    mutating func connectionLost() {
        previous = nil
    }

    /// Scene bodies in id order (the Tab selection order).
    var orderedBodyIDs: [Int] { bodiesByID.keys.sorted() }

    /// Gravity's direction as an angle (radians from +x toward +y) and its magnitude.
    var gravityAngleAndMagnitude: (angle: Double, magnitude: Double)? {
        guard let gravity = scene?.gravity else { return nil }
        return (Angle.direction(dx: gravity.dx, dy: gravity.dy), gravity.magnitude)
    }

    /// Every drawable item's pose at loop time `nowMs`.
    func poses(atMs nowMs: UInt64) -> [Int: Pose] {
        guard let latest else { return [:] }
        var result: [Int: Pose] = [:]
        result.reserveCapacity(latest.bodies.count)
        let fraction = interpolationFraction(atMs: nowMs)
        var previousByID: [Int: BodyState] = [:]
        if fraction < 1, let previous {
            for body in previous.bodies { previousByID[body.id] = body }
        }
        for body in latest.bodies where bodiesByID[body.id] != nil {
            let end = Pose(x: body.x, y: body.y, angle: body.angle)
            guard fraction < 1, let start = previousByID[body.id] else {
                result[body.id] = end
                continue
            }
            result[body.id] = Pose(x: start.x + (end.x - start.x) * fraction,
                                   y: start.y + (end.y - start.y) * fraction,
                                   angle: start.angle + Angle.shortestDelta(from: start.angle, to: end.angle) * fraction)
        }
        return result
    }

    /// How far from the previous snapshot (0) to the latest one (1) the picture should be at `nowMs`.
    func interpolationFraction(atMs nowMs: UInt64) -> Double {
        guard let latest, let previous, !latest.paused else { return 1 }
        let intervalSeconds = latest.time - previous.time
        guard intervalSeconds > 0, intervalSeconds.isFinite else { return 1 }
        let elapsedSeconds = Double(nowMs &- latestArrivalMs) / 1000
        guard nowMs >= latestArrivalMs else { return 0 }
        return min(1, max(0, elapsedSeconds / intervalSeconds))
    }

    /// The topmost item (drawn last) containing `point`, if any.
    func body(at point: Point, poses: [Int: Pose]) -> Int? {
        guard let latest else { return nil }
        for state in latest.bodies.reversed() {
            guard let info = bodiesByID[state.id], let pose = poses[state.id] else { continue }
            if BodyGeometry.contains(info, at: pose, point) { return state.id }
        }
        return nil
    }
}

/// Angle helpers that stay finite for any finite input.
enum Angle {
    /// The direction of (dx, dy); straight down (pi/2, default gravity) for the zero vector.
    static func direction(dx: Double, dy: Double) -> Double {
        guard dx != 0 || dy != 0 else { return Double.pi / 2 }
        return atan2(dy, dx)
    }

    /// The signed difference in (-pi, pi] that turns `from` into `to`.
    static func shortestDelta(from: Double, to: Double) -> Double {
        let fullTurn = 2 * Double.pi
        var delta = (to - from).truncatingRemainder(dividingBy: fullTurn)
        if delta > Double.pi { delta -= fullTurn }
        if delta <= -Double.pi { delta += fullTurn }
        return delta
    }
}
