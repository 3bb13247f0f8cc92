import NetProtocol

/// A braille drawing surface: 2 x 4 dots per terminal cell, one colour per cell.
///
/// Guarantees: a dot is set when its centre (x + 0.5, y + 0.5) lies inside a filled shape, so shapes cover
/// the same dots whatever their position within a cell; everything outside the canvas is clipped (any
/// coordinate, NaN and infinities included, is safe); a cell's colour is the colour of the last shape that
/// set one of its dots; `draw(into:)` writes U+2800 + the cell's dot bits for every cell with a dot.
struct BrailleCanvas {
    let columns: Int
    let rows: Int
    private(set) var dots: [UInt8]
    private(set) var colors: [RGB?]

    init(columns: Int, rows: Int) {
        self.columns = max(columns, 0)
        self.rows = max(rows, 0)
        dots = Array(repeating: 0, count: self.columns * self.rows)
        colors = Array(repeating: nil, count: self.columns * self.rows)
    }

    var dotColumns: Int { columns * 2 }
    var dotRows: Int { rows * 4 }

    /// Braille bit of the dot at (x % 2, y % 4), per Unicode's numbering (dots 1-3 and 7 on the left).
    private static let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    mutating func set(dotX x: Int, dotY y: Int, color: RGB?) {
        guard x >= 0, y >= 0, x < dotColumns, y < dotRows else { return }
        let index = (y / 4) * columns + x / 2
        dots[index] |= Self.bits[x & 1][y & 3]
        colors[index] = color
    }

    func isSet(dotX x: Int, dotY y: Int) -> Bool {
        guard x >= 0, y >= 0, x < dotColumns, y < dotRows else { return false }
        return dots[(y / 4) * columns + x / 2] & Self.bits[x & 1][y & 3] != 0
    }

    /// Number of dots set (tests).
    var dotCount: Int { dots.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Fills a convex polygon given in dot coordinates (vertices in either winding).
    mutating func fillConvexPolygon(_ vertices: [(x: Double, y: Double)], color: RGB?) {
        guard vertices.count >= 3, vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        let top = Self.index(vertices.map(\.y).min()! - 0.5, .up, limit: dotRows)
        let bottom = Self.index(vertices.map(\.y).max()! - 0.5, .down, limit: dotRows)
        guard top <= bottom, top < dotRows, bottom >= 0 else { return }
        for y in top...bottom {
            let centreY = Double(y) + 0.5
            var low = Double.infinity
            var high = -Double.infinity
            for index in vertices.indices {
                let a = vertices[index]
                let b = vertices[(index + 1) % vertices.count]
                guard (a.y <= centreY && b.y > centreY) || (b.y <= centreY && a.y > centreY) else { continue }
                let x = a.x + (centreY - a.y) / (b.y - a.y) * (b.x - a.x)
                low = min(low, x)
                high = max(high, x)
            }
            guard low <= high else { continue }
            fillSpan(y: y, from: low, to: high, color: color)
        }
    }

    /// Fills a circle given in dot coordinates (dots are square when the viewport's cell aspect is 2).
    mutating func fillCircle(centerX: Double, centerY: Double, radius: Double, color: RGB?) {
        guard centerX.isFinite, centerY.isFinite, radius.isFinite, radius > 0 else { return }
        let top = Self.index(centerY - radius - 0.5, .up, limit: dotRows)
        let bottom = Self.index(centerY + radius - 0.5, .down, limit: dotRows)
        guard top <= bottom, top < dotRows, bottom >= 0 else { return }
        for y in top...bottom {
            let dy = Double(y) + 0.5 - centerY
            let half = (radius * radius - dy * dy).squareRoot()
            guard half.isFinite else { continue }
            fillSpan(y: y, from: centerX - half, to: centerX + half, color: color)
        }
    }

    /// A dot index from a coordinate, clamped to -1...limit so that no finite value can overflow `Int`.
    private static func index(_ value: Double, _ rule: FloatingPointRoundingRule, limit: Int) -> Int {
        Int(min(max(value.rounded(rule), -1), Double(limit)))
    }

    /// Sets the dots whose centres lie in [from, to] on row y.
    private mutating func fillSpan(y: Int, from: Double, to: Double, color: RGB?) {
        let first = Self.index(from - 0.5, .up, limit: dotColumns)
        let last = Self.index(to - 0.5, .down, limit: dotColumns)
        guard first <= last, first < dotColumns, last >= 0 else { return }
        for x in first...last { set(dotX: x, dotY: y, color: color) }
    }

    /// Draws a line between two dot positions (both ends included) with Bresenham's algorithm on the dots
    /// that contain the ends, so consecutive dots always touch and a straight edge has no gaps.
    mutating func line(from a: (x: Double, y: Double), to b: (x: Double, y: Double), color: RGB?) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
        // Clip far-away ends so a line to a point a million dots away costs no more than the canvas size.
        let limit = Double(max(dotColumns, dotRows)) * 4 + 16
        guard let (p, q) = Self.clip(a, b, to: limit) else { return }
        var x = Int(p.x.rounded(.down))
        var y = Int(p.y.rounded(.down))
        let endX = Int(q.x.rounded(.down))
        let endY = Int(q.y.rounded(.down))
        let dx = abs(endX - x)
        let dy = -abs(endY - y)
        let stepX = x < endX ? 1 : -1
        let stepY = y < endY ? 1 : -1
        var error = dx + dy
        while true {
            set(dotX: x, dotY: y, color: color)
            if x == endX && y == endY { break }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += stepX
            }
            if doubled <= dx {
                error += dx
                y += stepY
            }
        }
    }

    /// Cohen-Sutherland clipping of a segment to the square [-limit, limit]^2. Each crossing is computed
    /// from its own end, so the clipped coordinate is exact even for ends 1e300 dots away.
    private static func clip(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double),
                             to limit: Double) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        func outcode(_ p: (x: Double, y: Double)) -> Int {
            (p.x < -limit ? 1 : 0) | (p.x > limit ? 2 : 0) | (p.y < -limit ? 4 : 0) | (p.y > limit ? 8 : 0)
        }
        var p = a
        var q = b
        for _ in 0..<8 {
            let codeP = outcode(p)
            let codeQ = outcode(q)
            if codeP | codeQ == 0 { return (p, q) }
            if codeP & codeQ != 0 { return nil }
            let outside = codeP != 0 ? codeP : codeQ
            let from = codeP != 0 ? p : q
            let to = codeP != 0 ? q : p
            var clipped = from
            if outside & 3 != 0 {
                let edge = outside & 1 != 0 ? -limit : limit
                clipped = (edge, from.y + (to.y - from.y) * ((edge - from.x) / (to.x - from.x)))
            } else {
                let edge = outside & 4 != 0 ? -limit : limit
                clipped = (from.x + (to.x - from.x) * ((edge - from.y) / (to.y - from.y)), edge)
            }
            guard clipped.x.isFinite, clipped.y.isFinite else { return nil }
            if codeP != 0 { p = clipped } else { q = clipped }
        }
        return outcode(p) | outcode(q) == 0 ? (p, q) : nil
    }

    /// Copies every cell with at least one dot into `frame`, offset by the area's origin.
    func draw(into frame: inout ScreenFrame, originColumn: Int, originRow: Int, bold: Bool = false) {
        for row in 0..<rows {
            for column in 0..<columns {
                let index = row * columns + column
                guard dots[index] != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(dots[index])) else { continue }
                frame[originColumn + column, originRow + row] =
                    Cell(scalar: scalar, style: CellStyle(foreground: colors[index], bold: bold))
            }
        }
    }
}
