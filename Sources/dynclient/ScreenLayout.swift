/// How the terminal's rows are shared: the world on top, then the info rows (gravity and the collision mode,
/// the scene's caption, other people's notices), the message bar and the status line at the bottom.
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

/// The info rows: the world's settings (gravity and the collision mode) at the start of the first, the
/// scene's caption after them, word-wrapped into the rows left (when it does not fit, its last row ends in
/// whole words and `(? for the rest)`: the help overlay shows all of it),
/// and other people's notices, newest at the bottom, in every row but the first.
enum InfoRows {
    struct Line: Equatable, Sendable {
        var text: String
        var notice = false
        /// How many leading characters are the settings (drawn bold).
        var settings = 0
    }

    static func lines(settings: String?, caption: String?, notices: [String], rows: Int, columns: Int) -> [Line] {
        guard rows > 0, columns > 0 else { return [] }
        let shownNotices = notices.suffix(rows - 1).map { Line(text: String(("> " + $0).prefix(columns)), notice: true) }
        let textRows = rows - shownNotices.count
        let lead = settings.map { $0 + (caption == nil ? "" : " |") } ?? ""
        let text = [lead, caption ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        var wrapped = wrap(text, width: columns)
        if wrapped.count > textRows {
            wrapped = Array(wrapped.prefix(textRows))
            // The settings lead the first row and stay whole; only the caption's words make room.
            let keep = wrapped.count == 1 ? lead.count : 0
            wrapped[wrapped.count - 1] = withHint(wrapped[wrapped.count - 1], keep: keep, columns: columns)
        }
        var result = wrapped.map { Line(text: $0) }
        if !result.isEmpty, let settings { result[0].settings = min(settings.count, result[0].text.count) }
        return result + shownNotices
    }

    /// The last row of a caption that goes on: whole words, then `(? for the rest)` (or `(?)` where only that
    /// fits): the help overlay (`?`) shows the whole caption. Words go from the end, never the first `keep`
    /// characters; a row with no room for either hint stays as it is.
    static func withHint(_ line: String, keep: Int, columns: Int) -> String {
        for hint in ["(? for the rest)", "(?)"] {
            var words = line.split(separator: " ").map(String.init)
            while words.joined(separator: " ").count + 1 + hint.count > columns, words.count > 1,
                  words.dropLast().joined(separator: " ").count >= keep {
                words.removeLast()
            }
            let text = words.joined(separator: " ")
            if text.count + 1 + hint.count <= columns { return text + " " + hint }
        }
        return line
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
