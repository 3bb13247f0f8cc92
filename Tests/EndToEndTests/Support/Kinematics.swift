import Foundation
import NetProtocol

/// Reading motion back from snapshots, in docs/UIKIT.md units (points, seconds, radians).
///
/// Accelerations use the snapshots' simulated `time`, never the wall clock, so a busy machine changes how
/// many snapshots arrive but not the numbers measured from them.
enum Kinematics {
    /// The mean acceleration of `body` between the first and last snapshot holding it, in pt/s²; nil when
    /// fewer than two snapshots span at least `minSpan` seconds of simulated time.
    static func acceleration(of body: Int, in snapshots: [Snapshot], minSpan: Double = 0.2) -> (ax: Double, ay: Double)? {
        let samples = snapshots.compactMap { s in s.body(body).map { (time: s.time, state: $0) } }
        guard let first = samples.first, let last = samples.last, last.time - first.time >= minSpan else { return nil }
        let dt = last.time - first.time
        return ((last.state.vx - first.state.vx) / dt, (last.state.vy - first.state.vy) / dt)
    }

    /// The world position of a point given in the item's frame (`offset` from the center, turned by `angle`).
    static func worldPoint(of state: BodyState, offset: Point) -> Point {
        let c = cos(state.angle), s = sin(state.angle)
        return Point(state.x + c * offset.x - s * offset.y, state.y + s * offset.x + c * offset.y)
    }

    static func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }
}

/// `actual` is within `fraction` (0.02 = 2%) of `expected`.
func isClose(_ actual: Double, _ expected: Double, within fraction: Double) -> Bool {
    abs(actual - expected) <= abs(expected) * fraction
}

extension MessageID {
    /// A numeric id as a client would write it.
    static func int(_ value: Int) -> MessageID { .number(String(value)) }
}
