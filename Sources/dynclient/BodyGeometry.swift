#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NetProtocol

/// Where an item is: its centre and rotation (radians from +x toward +y, clockwise on screen).
struct Pose: Equatable, Sendable {
    var x: Double
    var y: Double
    var angle: Double

    /// A point given in the item's own frame (relative to its centre, unrotated), in world points.
    func apply(_ offset: Point) -> Point {
        let c = cos(angle)
        let s = sin(angle)
        return Point(x + offset.x * c - offset.y * s, y + offset.x * s + offset.y * c)
    }

    /// A world point in the item's own frame (the inverse of `apply`).
    func local(_ point: Point) -> Point {
        let c = cos(angle)
        let s = sin(angle)
        let dx = point.x - x
        let dy = point.y - y
        return Point(dx * c + dy * s, -dx * s + dy * c)
    }
}

/// The outline of an item at a pose, in world points.
enum BodyOutline: Equatable, Sendable {
    case circle(center: Point, radius: Double)
    /// A convex polygon, vertices in order.
    case polygon([Point])
}

/// Shape maths for drawing items and finding the item under the mouse.
///
/// Guarantees: rectangles give their 4 rotated corners, circles (ellipse with width == height) stay circles,
/// other ellipses become a `ellipseSegments`-gon inscribed in the ellipse, polygons are rotated as given;
/// `contains` agrees with the outline (boundary included).
enum BodyGeometry {
    static let ellipseSegments = 32

    static func outline(of body: BodyInfo, at pose: Pose) -> BodyOutline {
        let halfWidth = body.width / 2
        let halfHeight = body.height / 2
        switch body.shape {
        case .rect:
            let corners = [Point(-halfWidth, -halfHeight), Point(halfWidth, -halfHeight),
                           Point(halfWidth, halfHeight), Point(-halfWidth, halfHeight)]
            return .polygon(corners.map(pose.apply))
        case .ellipse where body.width == body.height:
            return .circle(center: Point(pose.x, pose.y), radius: halfWidth)
        case .ellipse:
            let points = (0..<ellipseSegments).map { index -> Point in
                let t = Double(index) / Double(ellipseSegments) * 2 * Double.pi
                return pose.apply(Point(halfWidth * cos(t), halfHeight * sin(t)))
            }
            return .polygon(points)
        case let .polygon(points):
            return .polygon(points.map(pose.apply))
        }
    }

    /// A circle as an inscribed regular `ellipseSegments`-gon (outlines, and fills on non-square dots).
    static func circlePolygon(center: Point, radius: Double) -> [Point] {
        (0..<ellipseSegments).map { index in
            let t = Double(index) / Double(ellipseSegments) * 2 * Double.pi
            return Point(center.x + radius * cos(t), center.y + radius * sin(t))
        }
    }

    /// True when `point` lies on or inside the item.
    static func contains(_ body: BodyInfo, at pose: Pose, _ point: Point) -> Bool {
        let local = pose.local(point)
        let halfWidth = body.width / 2
        let halfHeight = body.height / 2
        switch body.shape {
        case .rect:
            return abs(local.x) <= halfWidth && abs(local.y) <= halfHeight
        case .ellipse:
            guard halfWidth > 0, halfHeight > 0 else { return false }
            let u = local.x / halfWidth
            let v = local.y / halfHeight
            return u * u + v * v <= 1
        case let .polygon(points):
            return convexPolygon(points, contains: local)
        }
    }

    /// Point-in-convex-polygon: the point is on the same side of every edge (either winding).
    static func convexPolygon(_ points: [Point], contains point: Point) -> Bool {
        guard points.count >= 3 else { return false }
        var sign = 0.0
        for index in points.indices {
            let a = points[index]
            let b = points[(index + 1) % points.count]
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }
}
