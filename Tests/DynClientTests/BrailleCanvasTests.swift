import NetProtocol
import Testing
@testable import dynclient

@Suite struct BrailleCanvasTests {
    let red = RGB(255, 0, 0)

    @Test(.timeLimit(.minutes(3))) func dotBitsFollowUnicodeBrailleNumbering() {
        var canvas = BrailleCanvas(columns: 1, rows: 1)
        canvas.set(dotX: 0, dotY: 0, color: nil)
        #expect(canvas.dots[0] == 0x01)
        canvas.set(dotX: 0, dotY: 3, color: nil)
        #expect(canvas.dots[0] == 0x41)
        canvas.set(dotX: 1, dotY: 3, color: nil)
        #expect(canvas.dots[0] == 0xC1)
        var frame = ScreenFrame(columns: 1, rows: 1)
        canvas.draw(into: &frame, originColumn: 0, originRow: 0)
        #expect(frame[0, 0].scalar == Unicode.Scalar(0x28C1)!)
    }

    @Test(.timeLimit(.minutes(3))) func axisAlignedBoxFillsExactlyItsDots() {
        var canvas = BrailleCanvas(columns: 10, rows: 5)
        canvas.fillConvexPolygon([(4, 4), (12, 4), (12, 12), (4, 12)], color: red)
        #expect(canvas.dotCount == 64)
        #expect(canvas.isSet(dotX: 4, dotY: 4))
        #expect(canvas.isSet(dotX: 11, dotY: 11))
        #expect(!canvas.isSet(dotX: 12, dotY: 11))
        #expect(!canvas.isSet(dotX: 3, dotY: 4))
        // Cells (2...5, 1...2) are full: dots 4...11 across, 4...11 down.
        #expect(canvas.dots[1 * 10 + 3] == 0xFF)
        #expect(canvas.colors[1 * 10 + 3] == red)
    }

    @Test(.timeLimit(.minutes(3))) func boxRotatedFortyFiveDegreesIsADiamond() {
        // Side 8 centred on (10, 10), turned 45 degrees: |u| + |v| <= 4 * sqrt(2) around the centre.
        let half = 4 * 2.0.squareRoot()
        var canvas = BrailleCanvas(columns: 10, rows: 5)
        canvas.fillConvexPolygon([(10, 10 - half), (10 + half, 10), (10, 10 + half), (10 - half, 10)], color: red)
        #expect(canvas.dotCount == 60)
        #expect(canvas.isSet(dotX: 9, dotY: 5))
        #expect(!canvas.isSet(dotX: 9, dotY: 4))
        #expect(!canvas.isSet(dotX: 5, dotY: 5))
        #expect(canvas.isSet(dotX: 5, dotY: 9))
        #expect(!canvas.isSet(dotX: 4, dotY: 9))
    }

    @Test(.timeLimit(.minutes(3))) func rotatedBodyOutlineThroughTheViewport() {
        // A 100 x 100 rect at (400, 300) turned 45 degrees, in a 100 x 30 terminal (0.2 dots per point):
        // a diamond of half-diagonal 14.14 dots around dot (100, 60).
        let viewport = Viewport(worldWidth: 800, worldHeight: 600, columns: 100, rows: 30)
        let body = BodyInfo(id: 1, shape: .rect, width: 100, height: 100, color: "#ff0000")
        guard case let .polygon(points) = BodyGeometry.outline(of: body, at: Pose(x: 400, y: 300, angle: Double.pi / 4)) else {
            Issue.record("a rect must give a polygon")
            return
        }
        var canvas = BrailleCanvas(columns: 100, rows: 30)
        canvas.fillConvexPolygon(points.map(viewport.dot(for:)), color: red)
        // Dot centres with |u| + |v| <= 14.14 around (100, 60): 4 * (1 + 2 + ... + 14) = 420.
        #expect(canvas.dotCount == 420)
        #expect(canvas.isSet(dotX: 100, dotY: 47))
        #expect(!canvas.isSet(dotX: 90, dotY: 50))
        #expect(canvas.isSet(dotX: 86, dotY: 60))
    }

    @Test(.timeLimit(.minutes(3))) func circleFillsDotsWithinTheRadius() {
        var canvas = BrailleCanvas(columns: 10, rows: 5)
        canvas.fillCircle(centerX: 10, centerY: 10, radius: 4, color: red)
        #expect(canvas.dotCount == 52)
        #expect(canvas.isSet(dotX: 10, dotY: 6))
        #expect(!canvas.isSet(dotX: 13, dotY: 6))
        #expect(!canvas.isSet(dotX: 10, dotY: 5))
    }

    @Test(.timeLimit(.minutes(3))) func horizontalLineSetsTheTopDotsOfFourCells() {
        var canvas = BrailleCanvas(columns: 5, rows: 1)
        canvas.line(from: (0.5, 0.5), to: (7.5, 0.5), color: red)
        #expect(Array(canvas.dots) == [0x09, 0x09, 0x09, 0x09, 0x00])
    }

    @Test(.timeLimit(.minutes(3))) func diagonalLineHasNoGaps() {
        var canvas = BrailleCanvas(columns: 20, rows: 5)
        canvas.line(from: (0.2, 0.7), to: (30.9, 19.1), color: nil)
        #expect(canvas.dotCount == 31)
        for x in 0...30 { #expect((0..<20).contains { canvas.isSet(dotX: x, dotY: $0) }, "column \(x)") }
    }

    @Test(.timeLimit(.minutes(3))) func shapesFarOutsideOrNotFiniteAreClippedWithoutTrapping() {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        canvas.fillConvexPolygon([(-1e300, -1e300), (1e300, -1e300), (1e300, 1e300), (-1e300, 1e300)], color: red)
        #expect(canvas.dotCount == 64)
        canvas = BrailleCanvas(columns: 4, rows: 2)
        canvas.fillConvexPolygon([(.nan, 0), (1, 1), (0, 1)], color: red)
        canvas.fillCircle(centerX: .infinity, centerY: 0, radius: 3, color: red)
        canvas.line(from: (-1e300, 3), to: (1e300, 3), color: red)
        canvas.line(from: (0, .nan), to: (3, 3), color: red)
        #expect(canvas.dotCount == 8)
    }

    @Test(.timeLimit(.minutes(3))) func aCellTakesTheColourOfTheLastShapeThatTouchedIt() {
        var canvas = BrailleCanvas(columns: 2, rows: 1)
        let blue = RGB(0, 0, 255)
        canvas.fillConvexPolygon([(0, 0), (4, 0), (4, 4), (0, 4)], color: red)
        canvas.set(dotX: 3, dotY: 0, color: blue)
        #expect(canvas.colors == [red, blue])
    }
}
