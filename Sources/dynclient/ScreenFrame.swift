/// A 24-bit colour.
struct RGB: Equatable, Hashable, Sendable {
    var r: UInt8
    var g: UInt8
    var b: UInt8

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Parses `#rrggbb` (either case); nil for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for digit in digits.dropFirst() {
            guard let nibble = Self.nibble(digit) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        self.init(UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// How one cell is painted. `nil` colours are the terminal's defaults.
struct CellStyle: Equatable, Hashable, Sendable {
    var foreground: RGB?
    var background: RGB?
    var bold = false
    var reverse = false
    /// Faint (SGR 2): the world while the server is away.
    var dim = false

    static let plain = CellStyle()
}

/// One character cell: a single-width scalar and its style.
struct Cell: Equatable, Sendable {
    var scalar: Unicode.Scalar
    var style: CellStyle

    static let blank = Cell(scalar: " ", style: .plain)
}

/// A full screen of cells, row-major. The unit `ScreenDiff` compares.
///
/// Guarantees: every cell holds one scalar that occupies exactly one column: text written through `put`
/// is reduced to printable ASCII (anything else, escape sequences included, becomes `?`), so nothing a
/// server sends can move the terminal's cursor or change its modes; writes outside the frame are clipped.
struct ScreenFrame: Equatable, Sendable {
    let columns: Int
    let rows: Int
    private(set) var cells: [Cell]

    init(columns: Int, rows: Int) {
        self.columns = max(columns, 0)
        self.rows = max(rows, 0)
        cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set {
            guard column >= 0, column < columns, row >= 0, row < rows else { return }
            cells[row * columns + column] = newValue
        }
    }

    /// Writes `text` from (column, row) on, clipped to the frame; returns the column after the last one.
    @discardableResult
    mutating func put(_ text: String, column: Int, row: Int, style: CellStyle = .plain) -> Int {
        var x = column
        for scalar in text.unicodeScalars {
            self[x, row] = Cell(scalar: Self.printable(scalar), style: style)
            x += 1
        }
        return x
    }

    /// Fills a row segment with spaces in `style` (status bars, overlay boxes).
    mutating func fill(row: Int, from column: Int, to end: Int, style: CellStyle) {
        for x in max(column, 0)..<min(end, columns) { self[x, row] = Cell(scalar: " ", style: style) }
    }

    /// The text of one row (tests and headless dumps).
    func text(row: Int) -> String {
        String(String.UnicodeScalarView(cells[(row * columns)..<((row + 1) * columns)].map(\.scalar)))
    }

    static func printable(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (0x20...0x7E).contains(scalar.value) ? scalar : "?"
    }
}
