#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NetProtocol

/// What the client knows about the shared world: the latest `welcome` and `scene`, and the snapshots being
/// played back (`InterpolationBuffer`).
///
/// Guarantees: every piece of world state enters through one of the `apply` methods (a snapshot only
/// through `apply(snapshot:arrivalMs:)`, so that another form of state update has one place to join);
/// `poses()` shows every item of the scene at the playback time set by the last `advance(toMs:)`, smoothly
/// and never moving backwards while the world moves; items in a snapshot but not in the scene are never drawn
/// (the scene is the structure).
struct WorldModel {
    private(set) var welcome: Welcome?
    private(set) var scene: SceneInfo?
    private(set) var bodiesByID: [Int: BodyInfo] = [:]
    private(set) var buffer = InterpolationBuffer()

    /// The newest snapshot received.
    var latest: Snapshot? { buffer.latest }

    mutating func apply(welcome: Welcome) {
        self.welcome = welcome
        buffer = InterpolationBuffer()
    }

    mutating func apply(scene: SceneInfo) {
        self.scene = scene
        bodiesByID = Dictionary(scene.bodies.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    mutating func apply(snapshot: Snapshot, arrivalMs: UInt64) {
        buffer.add(snapshot, arrivalMs: Double(arrivalMs))
    }

    /// Moves playback to loop time `nowMs`; call once per rendered frame.
    mutating func advance(toMs nowMs: UInt64) {
        buffer.advance(toMs: Double(nowMs))
    }

    /// Forgets motion (not structure) when the connection drops, so a reconnect does not interpolate
    /// across the gap.
    mutating func connectionLost() {
        buffer.restart()
    }

    /// Scene bodies in id order (the Tab selection order).
    var orderedBodyIDs: [Int] { bodiesByID.keys.sorted() }

    /// Gravity's direction as an angle (radians from +x toward +y) and its magnitude.
    var gravityAngleAndMagnitude: (angle: Double, magnitude: Double)? {
        guard let gravity = scene?.gravity else { return nil }
        return (Angle.direction(dx: gravity.dx, dy: gravity.dy), gravity.magnitude)
    }

    /// Every drawable item's pose at the playback time.
    func poses() -> [Int: Pose] {
        buffer.poses { bodiesByID[$0] != nil }
    }

    /// The poses after advancing a copy to `nowMs` (for tests and one-off questions).
    func poses(atMs nowMs: UInt64) -> [Int: Pose] {
        var copy = self
        copy.advance(toMs: nowMs)
        return copy.poses()
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
