/// A key the client reacts to, decoded from raw terminal bytes.
enum Key: Equatable, Sendable {
    /// A printable character (ASCII or a complete UTF-8 sequence).
    case character(Character)
    case up, down, left, right
    case tab, backTab, enter, escape, backspace
    /// A control byte other than the named ones: 0x01...0x1A is Ctrl-A...Ctrl-Z (Ctrl-C is 3).
    case control(UInt8)
    /// A complete escape sequence the client has no use for (function keys, Home, focus reports ...).
    case unknown
}

/// Which mouse button an SGR 1006 report names.
enum MouseButton: Equatable, Sendable {
    case left, middle, right
    /// Motion with no button held (only reported in any-event mode, never by `?1002`).
    case none
    case wheelUp, wheelDown
}

/// One SGR 1006 mouse report, with 0-based cell coordinates.
struct MouseEvent: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case press, release, motion }
    var kind: Kind
    var button: MouseButton
    var column: Int
    var row: Int
}

/// One decoded input event.
enum InputEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
}

/// Turns terminal input bytes into key and mouse events. Pure: no I/O, no clock.
///
/// Guarantees: a sequence split across any number of `feed` calls decodes exactly as if it had arrived in
/// one piece (incomplete tails are held back); a lone ESC is only reported by `flushPending()`, which the
/// caller invokes when no more bytes followed within a short timeout; bytes that cannot start anything are
/// never fatal: malformed sequences decode to `.unknown` and decoding continues.
struct InputDecoder {
    private var pending: [UInt8] = []
    /// Longest escape sequence kept while waiting for its end; longer garbage is dropped as `.unknown`.
    private let maxSequenceBytes = 64

    /// True while bytes are held back, waiting for the rest of a sequence.
    var hasPending: Bool { !pending.isEmpty }

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            guard let (event, length) = decodeOne(at: index) else { break }
            if let event { events.append(event) }
            index += length
        }
        pending.removeFirst(index)
        return events
    }

    /// Called after a quiet period: what is held back is final. A lone ESC is the Escape key; an unfinished
    /// sequence is reported as `.unknown` so it cannot swallow later keys.
    mutating func flushPending() -> [InputEvent] {
        guard !pending.isEmpty else { return [] }
        let held = pending
        pending.removeAll()
        if held == [0x1B] { return [.key(.escape)] }
        if held.first == 0x1B, held.count == 2 { return [.key(.escape)] + decodeAgain([held[1]]) }
        return [.key(.unknown)]
    }

    private func decodeAgain(_ bytes: [UInt8]) -> [InputEvent] {
        var fresh = InputDecoder()
        return fresh.feed(bytes) + fresh.flushPending()
    }

    /// Decodes the event starting at `index`: nil when more bytes are needed, else the event (nil when the
    /// bytes decode to nothing) and how many bytes it used.
    private func decodeOne(at index: Int) -> (InputEvent?, Int)? {
        let byte = pending[index]
        switch byte {
        case 0x1B: return decodeEscape(at: index)
        case 0x09: return (.key(.tab), 1)
        case 0x0D, 0x0A: return (.key(.enter), 1)
        case 0x7F, 0x08: return (.key(.backspace), 1)
        case 0x00..<0x20: return (.key(.control(byte)), 1)
        case 0x20..<0x7F: return (.key(.character(Character(Unicode.Scalar(byte)))), 1)
        default: return decodeUTF8(at: index)
        }
    }

    private func decodeEscape(at index: Int) -> (InputEvent?, Int)? {
        guard index + 1 < pending.count else { return nil }
        switch pending[index + 1] {
        case UInt8(ascii: "["): return decodeCSI(at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else { return nil }
            return (.key(Self.cursorKey(pending[index + 2]) ?? .unknown), 3)
        case 0x1B:
            // ESC ESC: the first one was the Escape key on its own.
            return (.key(.escape), 1)
        default:
            // Alt+key: report the key itself, the client gives Alt no meaning.
            return (nil, 1)
        }
    }

    /// `ESC [ params intermediates final`, with the SGR mouse form `ESC [ < b ; x ; y M|m`.
    private func decodeCSI(at index: Int) -> (InputEvent?, Int)? {
        var end = index + 2
        while end < pending.count {
            let byte = pending[end]
            if (0x40...0x7E).contains(byte) { break }
            if !(0x20...0x3F).contains(byte) { return (.key(.unknown), end - index) }
            end += 1
            if end - index > maxSequenceBytes { return (.key(.unknown), end - index) }
        }
        guard end < pending.count else { return nil }
        let length = end - index + 1
        let parameters = Array(pending[(index + 2)..<end])
        let final = pending[end]
        if parameters.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return (Self.sgrMouse(parameters.dropFirst(), released: final == UInt8(ascii: "m")).map(InputEvent.mouse)
                ?? .key(.unknown), length)
        }
        if final == UInt8(ascii: "Z") { return (.key(.backTab), length) }
        return (.key(Self.cursorKey(final) ?? .unknown), length)
    }

    private static func cursorKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: return nil
        }
    }

    /// `b;x;y` of an SGR report: low two bits the button, +32 motion, +64 wheel; x and y are 1-based.
    private static func sgrMouse(_ parameters: ArraySlice<UInt8>, released: Bool) -> MouseEvent? {
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        var numbers: [Int] = []
        for field in fields {
            guard !field.isEmpty, field.count <= 6, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            numbers.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        let code = numbers[0]
        guard numbers[1] >= 1, numbers[2] >= 1 else { return nil }
        let button: MouseButton
        if code & 64 != 0 {
            button = code & 1 == 0 ? .wheelUp : .wheelDown
        } else {
            switch code & 3 {
            case 0: button = .left
            case 1: button = .middle
            case 2: button = .right
            default: button = .none
            }
        }
        let kind: MouseEvent.Kind = released ? .release : (code & 32 != 0 ? .motion : .press)
        return MouseEvent(kind: kind, button: button, column: numbers[1] - 1, row: numbers[2] - 1)
    }

    private func decodeUTF8(at index: Int) -> (InputEvent?, Int)? {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.key(.unknown), 1)
        }
        guard index + length <= pending.count else {
            // Wait for the rest, unless a byte already here cannot continue the sequence.
            let tail = pending[(index + 1)...]
            return tail.allSatisfy({ $0 & 0xC0 == 0x80 }) ? nil : (.key(.unknown), 1)
        }
        let bytes = pending[index..<(index + length)]
        guard bytes.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }),
              let text = String(validating: bytes, as: UTF8.self), let character = text.first else {
            return (.key(.unknown), 1)
        }
        return (.key(.character(character)), length)
    }
}
