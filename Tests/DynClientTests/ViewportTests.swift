import NetProtocol
import Testing
@testable import dynclient

@Suite struct ViewportTests {
    // 800 x 600 in 100 x 30 cells: height limits (30 rows x 2 = 60 units for 600 pt), 0.1 unit per point,
    // 0.2 dots per point both ways, the 160-dot-wide world centred in 200 dots (20 dots = 10 cells margin).
    let viewport = Viewport(worldWidth: 800, worldHeight: 600, columns: 100, rows: 30)

    @Test(.timeLimit(.minutes(3))) func scaleIsTheSameInBothDirectionsForTwoToOneCells() {
        #expect(viewport.dotsPerPointX == 0.2)
        #expect(viewport.dotsPerPointY == 0.2)
        #expect(viewport.offsetDotsX == 20)
        #expect(viewport.offsetDotsY == 0)
    }

    @Test(.timeLimit(.minutes(3))) func worldCornersAndCentreLandOnTheExpectedCells() {
        #expect(viewport.cell(for: Point(0, 0)) == (10, 0))
        #expect(viewport.cell(for: Point(400, 300)) == (50, 15))
        #expect(viewport.cell(for: Point(799.9, 599.9)) == (89, 29))
    }

    @Test(.timeLimit(.minutes(3))) func aWorldSquareIsTwiceAsManyColumnsAsRows() {
        let (left, top) = viewport.cell(for: Point(100, 100))
        let (right, bottom) = viewport.cell(for: Point(200, 200))
        #expect(right - left == 10)
        #expect(bottom - top == 5)
    }

    @Test(.timeLimit(.minutes(3))) func cellToWorldGivesTheCellCentreAndMapsBack() {
        let point = viewport.worldPoint(column: 50, row: 15)
        #expect(point == Point(405, 310))
        #expect(viewport.cell(for: point) == (50, 15))
        for column in stride(from: 10, to: 90, by: 7) {
            for row in stride(from: 0, to: 30, by: 4) {
                #expect(viewport.cell(for: viewport.worldPoint(column: column, row: row)) == (column, row))
            }
        }
    }

    @Test(.timeLimit(.minutes(3))) func dotAndWorldPointAreInverse() {
        let (x, y) = viewport.dot(for: Point(123.5, 456.25))
        let back = viewport.worldPoint(dotX: x, dotY: y)
        #expect(abs(back.x - 123.5) < 1e-9)
        #expect(abs(back.y - 456.25) < 1e-9)
    }

    @Test(.timeLimit(.minutes(3))) func areaOriginShiftsCellsButNotTheWorld() {
        let shifted = Viewport(worldWidth: 800, worldHeight: 600, originColumn: 3, originRow: 2, columns: 100, rows: 30)
        #expect(shifted.cell(for: Point(400, 300)) == (53, 17))
        #expect(shifted.worldPoint(column: 53, row: 17) == Point(405, 310))
        #expect(shifted.contains(column: 3, row: 2))
        #expect(!shifted.contains(column: 2, row: 2))
        #expect(!shifted.contains(column: 103, row: 10))
    }

    @Test(.timeLimit(.minutes(3))) func wideTerminalIsLimitedByHeightAndCentredHorizontally() {
        let wide = Viewport(worldWidth: 800, worldHeight: 600, columns: 200, rows: 40)
        // 40 rows = 80 units for 600 pt: 0.1333 unit/pt, world 106.67 columns wide in 200.
        #expect(abs(wide.offsetDotsX - (400 - 800 * wide.dotsPerPointX) / 2) < 1e-9)
        #expect(wide.offsetDotsY == 0)
        #expect(wide.cell(for: Point(400, 300)) == (100, 20))
    }
}
