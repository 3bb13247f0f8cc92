/// Turns the difference between two frames into the bytes that update the terminal.
///
/// Guarantees: only changed cells are written (plus at most `maxGapFill` unchanged cells between two changed
/// ones on a row, when that is shorter than moving the cursor); the cursor is moved with CUP only when it is
/// not already in place; SGR is emitted only when the style changes; the whole update is one byte string
/// wrapped in synchronized-output markers (`ESC[?2026h` ... `ESC[?2026l`) and ends with attributes reset;
/// no change at all yields no bytes. Without a previous frame (or after a size change) the screen is
/// cleared and every non-blank cell is drawn.
enum ScreenDiff {
    static let beginSync: [UInt8] = Array("\u{1B}[?2026h".utf8)
    static let endSync: [UInt8] = Array("\u{1B}[?2026l".utf8)
    static let maxGapFill = 4

    static func render(previous: ScreenFrame?, next: ScreenFrame, colorMode: ColorMode) -> [UInt8] {
        var out = Output(colorMode: colorMode)
        let base: ScreenFrame
        if let previous, previous.columns == next.columns, previous.rows == next.rows {
            base = previous
        } else {
            out.bytes += Array("\u{1B}[0m\u{1B}[2J".utf8)
            base = ScreenFrame(columns: next.columns, rows: next.rows)
        }
        for row in 0..<next.rows {
            var column = 0
            while column < next.columns {
                guard next[column, row] != base[column, row] else {
                    column += 1
                    continue
                }
                out.moveTo(column: column, row: row)
                out.write(next[column, row], lastColumn: column == next.columns - 1)
                column += 1
                // Rewrite a short run of unchanged cells when a changed cell follows and the style holds.
                var lookahead = column
                while lookahead < next.columns, lookahead - column < maxGapFill,
                      next[lookahead, row] == base[lookahead, row], out.effective(next[lookahead, row].style) == out.style {
                    lookahead += 1
                }
                if lookahead > column, lookahead < next.columns, next[lookahead, row] != base[lookahead, row] {
                    for gap in column..<lookahead { out.write(next[gap, row], lastColumn: false) }
                    column = lookahead
                }
            }
        }
        guard !out.bytes.isEmpty else { return [] }
        if out.style != .plain { out.bytes += Array("\u{1B}[0m".utf8) }
        return beginSync + out.bytes + endSync
    }

    /// The byte stream being built, with the terminal state it leaves behind.
    private struct Output {
        let colorMode: ColorMode
        var bytes: [UInt8] = []
        var style = CellStyle.plain
        /// Where the terminal's cursor is, when known.
        var cursor: (column: Int, row: Int)?

        init(colorMode: ColorMode) { self.colorMode = colorMode }

        mutating func moveTo(column: Int, row: Int) {
            if let cursor, cursor.column == column, cursor.row == row { return }
            bytes += Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
            cursor = (column, row)
        }

        /// The style as this colour mode can show it: without colour, colours make no difference.
        func effective(_ style: CellStyle) -> CellStyle {
            colorMode == .none ? CellStyle(bold: style.bold, reverse: style.reverse, dim: style.dim) : style
        }

        mutating func write(_ cell: Cell, lastColumn: Bool) {
            let wanted = effective(cell.style)
            if wanted != style {
                bytes += Array(sgr(wanted).utf8)
                style = wanted
            }
            bytes += Array(String(cell.scalar).utf8)
            // After the last column the terminal's cursor position depends on its wrap handling.
            cursor = lastColumn ? nil : cursor.map { ($0.column + 1, $0.row) }
        }

        func sgr(_ style: CellStyle) -> String {
            var parameters = ["0"]
            if style.bold { parameters.append("1") }
            if style.dim { parameters.append("2") }
            if style.reverse { parameters.append("7") }
            if colorMode != .none {
                if let foreground = style.foreground { parameters.append(colorMode.sgrParameters(foreground, background: false)) }
                if let background = style.background { parameters.append(colorMode.sgrParameters(background, background: true)) }
            }
            return "\u{1B}[" + parameters.joined(separator: ";") + "m"
        }
    }
}
