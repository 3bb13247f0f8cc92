/// How the terminal's rows are shared: the world on top, then the info rows (the scene's caption and other
/// people's notices), the message bar and the status line at the bottom.
///
/// Guarantees: the world's rows depend on the terminal's size alone, so nothing shown in the info rows, the
/// message bar or the status line ever moves or covers the world; a terminal under `minimumRowsForInfo`
/// rows has no info rows (its few rows all go to the world).
struct ScreenLayout: Equatable, Sendable {
    static let infoRowCount = 2
    static let minimumRowsForInfo = 12

    let rows: Int
    var infoRows: Int { rows >= Self.minimumRowsForInfo ? Self.infoRowCount : 0 }
    var worldRows: Int { max(0, rows - 2 - infoRows) }
    /// The first info row (the caption's).
    var infoTop: Int { worldRows }
    var messageRow: Int { rows - 2 }
    var statusRow: Int { rows - 1 }

    init(rows: Int) { self.rows = rows }
}

/// The info rows: other people's notices (newest at the bottom), and above them, in the rows they leave,
/// the scene's caption, word-wrapped (its end cut with `~` when it does not fit).
enum InfoRows {
    static func lines(caption: String?, notices: [String], rows: Int, columns: Int) -> [(text: String, notice: Bool)] {
        guard rows > 0, columns > 0 else { return [] }
        let shownNotices = notices.suffix(rows).map { (text: String(("> " + $0).prefix(columns)), notice: true) }
        let captionRows = rows - shownNotices.count
        var captionLines: [String] = []
        if captionRows > 0, let caption {
            let wrapped = wrap(caption, width: columns)
            captionLines = Array(wrapped.prefix(captionRows))
            if wrapped.count > captionRows, var last = captionLines.popLast() {
                if last.count >= columns { last = String(last.prefix(columns - 1)) }
                captionLines.append(last + "~")
            }
        }
        return captionLines.map { (text: $0, notice: false) } + shownNotices
    }

    /// Words into lines of at most `width` characters (a word longer than a line is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let word = String(word.prefix(width))
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
