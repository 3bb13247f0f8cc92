import Foundation
import NetProtocol

/// Your own drag drawn without lag (docs/ARCHITECTURE.md, "The terminal client"): while you drag an item it
/// is drawn with its grab point under the pointer (at the server's angle) in the next frame, not a round
/// trip plus the interpolation delay later. After the release it stays where you let go until the
/// server's pose has caught up with it (within `catchUp` points, or `holdLimitMs` passed), then eases into
/// the server's pose, the offset halving every `halfLifeMs`, so that the item never jumps.
///
/// Guarantees: without a drag of yours the poses are the server's, unchanged; only the dragged item's pose
/// is replaced; the echo ends (the server's pose drawn exactly) once the offset is under 1 % of where the
/// easing started, or the item is gone.
struct DragEcho: Sendable {
    static let halfLifeMs = 60.0
    static let holdLimitMs: UInt64 = 800
    static let catchUp = 2.5

    private enum Phase: Sendable {
        case none
        case dragging(body: Int, pose: Pose)
        case held(body: Int, pose: Pose, sinceMs: UInt64)
        case easing(body: Int, offset: Pose, sinceMs: UInt64)
    }
    private var phase = Phase.none

    /// True while the echo replaces an item's pose.
    var isActive: Bool { if case .none = phase { return false } else { return true } }

    /// The poses to draw at `nowMs`: `server`'s, with the item of `ownDrag` (its id and the grab point in
    /// its own frame) drawn under `pointer` while the drag lasts, and held then eased after it.
    mutating func poses(_ server: [Int: Pose], ownDrag: (body: Int, grab: Point)?, pointer: Point?, nowMs: UInt64) -> [Int: Pose] {
        var out = server
        if let ownDrag, let pointer, let pose = server[ownDrag.body] {
            var echo = pose
            let grab = Pose(x: 0, y: 0, angle: pose.angle).apply(ownDrag.grab)
            echo.x = pointer.x - grab.x
            echo.y = pointer.y - grab.y
            phase = .dragging(body: ownDrag.body, pose: echo)
            out[ownDrag.body] = echo
            return out
        }
        if case let .dragging(body, pose) = phase { phase = .held(body: body, pose: pose, sinceMs: nowMs) }
        switch phase {
        case .none, .dragging:
            return out
        case let .held(body, pose, sinceMs):
            guard let now = server[body] else { phase = .none; return out }
            if hypot(now.x - pose.x, now.y - pose.y) > Self.catchUp, nowMs &- sinceMs < Self.holdLimitMs {
                out[body] = pose
                return out
            }
            phase = .easing(body: body, offset: Pose(x: pose.x - now.x, y: pose.y - now.y, angle: pose.angle - now.angle),
                            sinceMs: nowMs)
            return poses(server, ownDrag: nil, pointer: nil, nowMs: nowMs)
        case let .easing(body, offset, sinceMs):
            let k = pow(0.5, Double(nowMs &- sinceMs) / Self.halfLifeMs)
            guard let now = server[body], k >= 0.01 else { phase = .none; return out }
            out[body] = Pose(x: now.x + offset.x * k, y: now.y + offset.y * k, angle: now.angle + offset.angle * k)
            return out
        }
    }
}
