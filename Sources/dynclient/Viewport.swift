import NetProtocol

/// Maps the world rectangle onto a block of terminal cells, aspect-correct and centred.
///
/// Guarantees: one world point covers the same physical distance horizontally and vertically, given that a
/// cell is `cellAspect` times taller than wide (about 2 in common fonts); the whole world fits inside the
/// area and is centred in the spare direction; `worldPoint(dotX:dotY:)` inverts `dot(for:)` exactly and
/// `worldPoint(column:row:)` returns the centre of a cell, which `cell(for:)` maps back to that cell.
/// Braille dot coordinates count 2 dots per cell across and 4 down, from the area's top-left corner.
struct Viewport: Equatable, Sendable {
    let worldWidth: Double
    let worldHeight: Double
    /// The area's top-left cell on the screen (0-based) and its size in cells.
    let originColumn: Int
    let originRow: Int
    let columns: Int
    let rows: Int
    let cellAspect: Double
    /// Dots per world point, horizontally and vertically (they differ when `cellAspect` is not 2).
    let dotsPerPointX: Double
    let dotsPerPointY: Double
    /// Where the world's origin falls, in dots from the area's top-left corner.
    let offsetDotsX: Double
    let offsetDotsY: Double

    init(worldWidth: Double, worldHeight: Double, originColumn: Int = 0, originRow: Int = 0,
         columns: Int, rows: Int, cellAspect: Double = 2) {
        self.worldWidth = max(worldWidth, 1)
        self.worldHeight = max(worldHeight, 1)
        self.originColumn = originColumn
        self.originRow = originRow
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        self.cellAspect = cellAspect
        // Physical unit: one cell width. The area is columns x (rows * cellAspect) units.
        let unitsPerPoint = min(Double(self.columns) / self.worldWidth,
                                Double(self.rows) * cellAspect / self.worldHeight)
        dotsPerPointX = unitsPerPoint * 2
        dotsPerPointY = unitsPerPoint * 4 / cellAspect
        offsetDotsX = (Double(self.columns * 2) - self.worldWidth * dotsPerPointX) / 2
        offsetDotsY = (Double(self.rows * 4) - self.worldHeight * dotsPerPointY) / 2
    }

    var dotColumns: Int { columns * 2 }
    var dotRows: Int { rows * 4 }

    /// A world point in (fractional) dot coordinates of the area.
    func dot(for point: Point) -> (x: Double, y: Double) {
        (offsetDotsX + point.x * dotsPerPointX, offsetDotsY + point.y * dotsPerPointY)
    }

    func worldPoint(dotX: Double, dotY: Double) -> Point {
        Point((dotX - offsetDotsX) / dotsPerPointX, (dotY - offsetDotsY) / dotsPerPointY)
    }

    /// The screen cell (0-based, including the area's origin) that shows a world point.
    func cell(for point: Point) -> (column: Int, row: Int) {
        let (x, y) = dot(for: point)
        return (originColumn + Int((x / 2).rounded(.down)), originRow + Int((y / 4).rounded(.down)))
    }

    /// The world point at the centre of a screen cell (0-based, including the area's origin).
    func worldPoint(column: Int, row: Int) -> Point {
        worldPoint(dotX: Double(column - originColumn) * 2 + 1, dotY: Double(row - originRow) * 4 + 2)
    }

    /// A world distance in horizontal and vertical cells, for moving a keyboard cursor one cell at a time.
    var pointsPerCellX: Double { 2 / dotsPerPointX }
    var pointsPerCellY: Double { 4 / dotsPerPointY }

    /// True when a screen cell lies inside the area.
    func contains(column: Int, row: Int) -> Bool {
        column >= originColumn && column < originColumn + columns && row >= originRow && row < originRow + rows
    }
}
