import NetProtocol

/// What one headless input line asks for.
enum HeadlessLine: Equatable, Sendable {
    /// Bytes to send, one line ending in `\n`.
    case send([UInt8])
    /// Pause sending for this many milliseconds.
    case wait(milliseconds: UInt64)
    /// A blank line or a `#` comment.
    case nothing
}

/// Why a short-syntax line was refused (printed to stderr; the line is skipped).
struct ShortCommandError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The headless short syntax of SPEC Part C, translated to wire lines.
///
/// Guarantees: a line starting with `{` is raw JSON and passes through unchanged (the server judges it);
/// `tap X Y [mode]`, `drag begin|move X Y`, `drag end`, `snap ID X Y`, `push ID ANGLE MAGNITUDE [mode]`,
/// `ping` and `wait MS` produce exactly the `ClientMessage` they name (numbers must be finite, ids and
/// milliseconds non-negative integers, modes `continuous` or `instantaneous`); anything else is an error
/// that names the problem. Words are separated by any run of spaces or tabs.
enum ShortCommand {
    static let usage = "tap X Y [mode] | drag begin|move X Y | drag end | snap ID X Y | push ID ANGLE MAGNITUDE [mode] | ping | wait MS | {raw json}"

    /// Parses one line; `pingTime` becomes the `t` of a `ping` so its `pong` tells the round trip.
    static func parse(_ line: String, pingTime: Double? = nil) throws(ShortCommandError) -> HeadlessLine {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .nothing }
        if trimmed.hasPrefix("{") { return .send(Array(trimmed.utf8) + [0x0A]) }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let arguments = Array(words.dropFirst())
        switch words[0] {
        case "tap":
            try count(arguments, 2...3, "tap X Y [mode]")
            let mode = try arguments.count == 3 ? pushMode(arguments[2]) : .continuous
            return message(.tap(x: try number(arguments[0], "X"), y: try number(arguments[1], "Y"), body: nil, mode: mode))
        case "drag":
            return try drag(arguments)
        case "snap":
            try count(arguments, 3...3, "snap ID X Y")
            return message(.snap(body: try identifier(arguments[0]), x: try number(arguments[1], "X"),
                                 y: try number(arguments[2], "Y"), damping: nil))
        case "push":
            try count(arguments, 3...4, "push ID ANGLE MAGNITUDE [mode]")
            let mode = try arguments.count == 4 ? pushMode(arguments[3]) : nil
            let direction = PushDirection.angle(try number(arguments[1], "ANGLE"), magnitude: try number(arguments[2], "MAGNITUDE"))
            return message(.push(body: try identifier(arguments[0]), direction: direction, mode: mode, active: nil, offset: nil))
        case "ping":
            try count(arguments, 0...0, "ping")
            return message(.ping(t: pingTime.map(JSONValue.number)))
        case "wait":
            try count(arguments, 1...1, "wait MS")
            guard let milliseconds = UInt64(arguments[0]) else {
                throw ShortCommandError(message: "wait: \"\(arguments[0])\" is not a whole number of milliseconds")
            }
            return .wait(milliseconds: milliseconds)
        default:
            throw ShortCommandError(message: "unknown command \"\(words[0])\"; expected \(usage)")
        }
    }

    private static func drag(_ arguments: [String]) throws(ShortCommandError) -> HeadlessLine {
        guard let phaseWord = arguments.first, let phase = DragPhase(rawValue: phaseWord) else {
            throw ShortCommandError(message: "drag: expected begin, move or end")
        }
        if phase == .end {
            try count(arguments, 1...1, "drag end")
            return message(.drag(phase: .end, x: nil, y: nil, body: nil))
        }
        try count(arguments, 3...3, "drag \(phase.rawValue) X Y")
        return message(.drag(phase: phase, x: try number(arguments[1], "X"), y: try number(arguments[2], "Y"), body: nil))
    }

    private static func message(_ command: ClientCommand) -> HeadlessLine { .send(ClientMessage(command).encoded()) }

    private static func count(_ arguments: [String], _ allowed: ClosedRange<Int>, _ form: String) throws(ShortCommandError) {
        guard allowed.contains(arguments.count) else { throw ShortCommandError(message: "expected \(form)") }
    }

    private static func number(_ word: String, _ name: String) throws(ShortCommandError) -> Double {
        guard let value = Double(word), value.isFinite else {
            throw ShortCommandError(message: "\(name): \"\(word)\" is not a finite number")
        }
        return value
    }

    private static func identifier(_ word: String) throws(ShortCommandError) -> Int {
        guard let value = Int(word), value >= 0 else {
            throw ShortCommandError(message: "ID: \"\(word)\" is not a body id")
        }
        return value
    }

    private static func pushMode(_ word: String) throws(ShortCommandError) -> PushModeName {
        guard let mode = PushModeName(rawValue: word) else {
            throw ShortCommandError(message: "mode: \"\(word)\" is not continuous or instantaneous")
        }
        return mode
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, `\r` and `\n`.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
