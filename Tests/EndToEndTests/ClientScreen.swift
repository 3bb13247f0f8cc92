/// A minimal terminal emulator for what `dynclient` writes: cursor positioning (CUP), clear (ED 2),
/// attributes (SGR: reverse, dim, bold) and UTF-8 text; mode switches are ignored. Enough to read the screen
/// a person would see, fed incrementally as output arrives.
///
/// Guarantees: bytes may be fed in any split (an unfinished sequence or character waits for the rest);
/// writes outside the screen are dropped; `text(row:)` is the row's characters, `isReverse` a cell's
/// reverse-video attribute as last drawn.
final class ClientScreen {
    struct Cell: Equatable {
        var character: Character = " "
        var reverse = false
        var dim = false
    }

    let columns: Int
    let rows: Int
    private(set) var cells: [[Cell]]
    private var pending: [UInt8] = []
    private var row = 0
    private var column = 0
    private var reverse = false
    private var dim = false
    /// Frames seen so far: each ends with the synchronized-output end marker `ESC[?2026l`.
    private(set) var frames = 0
    /// Called at the end of every frame, with the screen as that frame left it.
    var onFrame: ((ClientScreen) -> Void)?

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    }

    func text(row: Int) -> String { String(cells[row].map(\.character)) }

    /// Every row, joined with newlines (for failure messages).
    var text: String { (0..<rows).map(text(row:)).joined(separator: "\n") }

    func contains(_ needle: String) -> Bool { (0..<rows).contains { text(row: $0).contains(needle) } }

    func isReverse(column: Int, row: Int) -> Bool { cells[row][column].reverse }

    /// The leftmost braille dot column (2 per cell) set within `rows` and `columns`, if any.
    func leftmostDot(rows rowRange: Range<Int>, columns columnRange: Range<Int>) -> Int? {
        var best: Int?
        for row in rowRange {
            for column in columnRange {
                guard let scalar = cells[row][column].character.unicodeScalars.first,
                      (0x2801...0x28FF).contains(scalar.value) else { continue }
                let bits = scalar.value - 0x2800
                // Dots 1, 2, 3 and 7 are the left column.
                let x = column * 2 + (bits & 0x47 != 0 ? 0 : 1)
                if best.map({ x < $0 }) ?? true { best = x }
            }
        }
        return best
    }

    /// Cells in reverse video within `rowRange` (the world area, say).
    func reverseCount(rows rowRange: Range<Int>) -> Int {
        rowRange.reduce(0) { $0 + cells[$1].filter(\.reverse).count }
    }

    func dimCount(rows rowRange: Range<Int>) -> Int {
        rowRange.reduce(0) { $0 + cells[$1].filter(\.dim).count }
    }

    func feed(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var index = 0
        while index < pending.count {
            guard let used = step(at: index) else { break }
            index += used
        }
        pending.removeFirst(index)
    }

    /// Handles what starts at `index`; nil when it is not complete yet.
    private func step(at index: Int) -> Int? {
        let byte = pending[index]
        if byte == 0x1B {
            guard index + 1 < pending.count else { return nil }
            guard pending[index + 1] == UInt8(ascii: "[") else { return 2 }
            var end = index + 2
            while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
            guard end < pending.count else { return nil }
            control(parameters: String(decoding: pending[(index + 2)..<end], as: UTF8.self), final: pending[end])
            return end - index + 1
        }
        if byte < 0x20 { return 1 }
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard index + length <= pending.count else { return nil }
        let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
        if row < rows, column < columns, let character = text.first {
            cells[row][column] = Cell(character: character, reverse: reverse, dim: dim)
        }
        column += 1
        return length
    }

    private func control(parameters: String, final: UInt8) {
        switch final {
        case UInt8(ascii: "H"):
            let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
            row = (numbers.first ?? 1) - 1
            column = (numbers.count > 1 ? numbers[1] : 1) - 1
        case UInt8(ascii: "l") where parameters == "?2026":
            frames += 1
            onFrame?(self)
        case UInt8(ascii: "J") where parameters == "2":
            cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
        case UInt8(ascii: "m"):
            let list = parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            var index = 0
            while index < list.count {
                switch list[index] {
                case "", "0": reverse = false; dim = false
                case "7": reverse = true
                case "2": dim = true
                // 38/48;5;n and 38/48;2;r;g;b: colours, whose numbers are not attributes.
                case "38", "48": index += list.count > index + 1 && list[index + 1] == "2" ? 4 : 2
                default: break
                }
                index += 1
            }
        default: break
        }
    }
}
