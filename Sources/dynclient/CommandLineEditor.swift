/// The `:` command line: one line of text being edited, with history and Tab completion. Pure.
///
/// Guarantees: printable characters are appended, Backspace removes the last one; Up and Down walk the
/// history of lines run before (newest first; Down past the newest gives back the line being typed); Tab
/// completes the word under the cursor: the first word from the command words, the argument of `scene` from
/// `sceneNames`, of `collision` from its modes, property names after `set` and `spawn` (words not already
/// a number); a unique match is completed with a space after it, several matches are completed to their
/// common prefix and listed in `candidates`. History keeps at most `historyLimit` lines, never two equal
/// ones in a row, never a blank one.
struct CommandLineEditor: Equatable, Sendable {
    private(set) var text = ""
    /// What Tab found when it could not decide (shown above the line).
    private(set) var candidates: [String] = []
    private(set) var history: [String] = []
    private var historyIndex: Int?
    private var draft = ""
    static let historyLimit = 100

    init(text: String = "", history: [String] = []) {
        self.text = text
        self.history = history
    }

    mutating func type(_ character: Character) {
        text.append(character)
        candidates = []
    }

    mutating func backspace() {
        if !text.isEmpty { text.removeLast() }
        candidates = []
    }

    /// Starts a fresh line (history kept).
    mutating func reset(text: String = "") {
        self.text = text
        candidates = []
        historyIndex = nil
        draft = ""
    }

    /// Returns the line to run and records it in the history.
    mutating func submit() -> String {
        let line = text
        if !line.trimmingWhitespace().isEmpty, history.last != line {
            history.append(line)
            if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        }
        reset()
        return line
    }

    mutating func historyUp() {
        guard !history.isEmpty else { return }
        if historyIndex == nil { draft = text }
        let index = max(0, (historyIndex ?? history.count) - 1)
        historyIndex = index
        text = history[index]
        candidates = []
    }

    mutating func historyDown() {
        guard let index = historyIndex else { return }
        if index + 1 < history.count {
            historyIndex = index + 1
            text = history[index + 1]
        } else {
            historyIndex = nil
            text = draft
        }
        candidates = []
    }

    mutating func complete(sceneNames: [String]) {
        let endsInSpace = text.last == " " || text.last == "\t"
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let partial = endsInSpace ? "" : (words.popLast() ?? "")
        let options = Self.completions(after: words, sceneNames: sceneNames)
        let matches = options.filter { $0.hasPrefix(partial) }
        guard !matches.isEmpty else {
            candidates = []
            return
        }
        let prefix = text.dropLast(partial.count)
        if matches.count == 1 {
            text = prefix + matches[0] + " "
            candidates = []
            return
        }
        text = prefix + Self.commonPrefix(matches)
        candidates = matches
    }

    /// What may follow `words` (the words before the one being completed).
    static func completions(after words: [String], sceneNames: [String]) -> [String] {
        guard let verb = words.first else { return ShortCommand.commandWords }
        let arguments = words.dropFirst()
        switch verb {
        case "scene": return arguments.isEmpty ? sceneNames : []
        case "collision": return arguments.isEmpty ? ["items", "boundaries", "everything"] : []
        case "spawn": return arguments.isEmpty ? ["rect", "ellipse"] : ShortCommand.propertyNames.map { $0 + "=" }
        case "set":
            // PROP VALUE pairs after an optional id: a property name goes where a pair starts.
            let pairs = arguments.first.flatMap(ShortArguments.bodyID) != nil ? arguments.dropFirst() : arguments
            return pairs.count % 2 == 0 ? ShortCommand.propertyNames : []
        case "tap", "push": return ["continuous", "instantaneous"]
        case "drag": return arguments.isEmpty ? ["begin", "move", "end"] : []
        case "subscribe": return ["contacts=", "notices=", "snapshots=", "hz="]
        default: return ShortCommand.optionWords[verb] ?? []
        }
    }

    static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first else { return "" }
        for word in words.dropFirst() {
            while !word.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
