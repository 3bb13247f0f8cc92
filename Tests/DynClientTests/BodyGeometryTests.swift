import NetProtocol
import Testing
@testable import dynclient

@Suite struct BodyGeometryTests {
    @Test(.timeLimit(.minutes(3))) func poseAppliesAndInvertsItemOffsets() {
        let pose = Pose(x: 100, y: 50, angle: Double.pi / 2)
        let world = pose.apply(Point(30, 0))
        #expect(abs(world.x - 100) < 1e-9)
        #expect(abs(world.y - 80) < 1e-9)
        let back = pose.local(world)
        #expect(abs(back.x - 30) < 1e-9)
        #expect(abs(back.y) < 1e-9)
    }

    @Test(.timeLimit(.minutes(3))) func rotatedRectCornersAndContainment() {
        let body = BodyInfo(id: 1, shape: .rect, width: 100, height: 40, color: "#ffffff")
        let pose = Pose(x: 0, y: 0, angle: Double.pi / 2)
        guard case let .polygon(corners) = BodyGeometry.outline(of: body, at: pose) else {
            Issue.record("a rect must give a polygon")
            return
        }
        #expect(corners.count == 4)
        #expect(abs(corners[0].x - 20) < 1e-9)
        #expect(abs(corners[0].y + 50) < 1e-9)
        #expect(BodyGeometry.contains(body, at: pose, Point(0, 49)))
        #expect(!BodyGeometry.contains(body, at: pose, Point(49, 0)))
    }

    @Test(.timeLimit(.minutes(3))) func circlesStayCirclesOtherEllipsesBecomePolygons() {
        let circle = BodyInfo(id: 1, shape: .ellipse, width: 60, height: 60, color: "#ffffff")
        #expect(BodyGeometry.outline(of: circle, at: Pose(x: 5, y: 6, angle: 1)) == .circle(center: Point(5, 6), radius: 30))
        let oval = BodyInfo(id: 2, shape: .ellipse, width: 100, height: 50, color: "#ffffff")
        guard case let .polygon(points) = BodyGeometry.outline(of: oval, at: Pose(x: 0, y: 0, angle: 0)) else {
            Issue.record("an ellipse must give a polygon")
            return
        }
        #expect(points.count == BodyGeometry.ellipseSegments)
        #expect(BodyGeometry.contains(oval, at: Pose(x: 0, y: 0, angle: 0), Point(49, 0)))
        #expect(!BodyGeometry.contains(oval, at: Pose(x: 0, y: 0, angle: 0), Point(0, 26)))
    }

    @Test(.timeLimit(.minutes(3))) func convexPolygonContainmentInEitherWinding() {
        let triangle = [Point(0, -40), Point(40, 30), Point(-40, 30)]
        #expect(BodyGeometry.convexPolygon(triangle, contains: Point(0, 0)))
        #expect(BodyGeometry.convexPolygon(triangle.reversed(), contains: Point(0, 0)))
        #expect(!BodyGeometry.convexPolygon(triangle, contains: Point(30, -20)))
        let body = BodyInfo(id: 3, shape: .polygon(triangle), width: 80, height: 70, color: "#ffffff")
        #expect(BodyGeometry.contains(body, at: Pose(x: 100, y: 100, angle: Double.pi), Point(100, 130)))
        #expect(!BodyGeometry.contains(body, at: Pose(x: 100, y: 100, angle: Double.pi), Point(100, 65)))
    }
}
