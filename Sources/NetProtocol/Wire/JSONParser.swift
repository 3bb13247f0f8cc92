/// A strict RFC 8259 JSON parser over raw bytes, with the error codes of docs/PROTOCOL.md.
///
/// Guarantees: malformed syntax, invalid UTF-8, raw control characters (NUL included) inside strings,
/// lone surrogate escapes, trailing bytes after the value and nesting deeper than `maxDepth` all fail with
/// `bad_json`; recursion never goes deeper than `maxDepth`, so hostile nesting cannot exhaust the stack.
/// A number literal that overflows a `Double` (`1e999`) and the non-JSON literals `NaN`, `Infinity` and
/// `-Infinity` fail with `bad_value`; a duplicate key in one object fails with `bad_message`. Underflow rounds
/// to zero and `-0` parses as `0`. Numbers are correctly rounded.
public enum JSONParser {
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 32) throws(ProtocolError) -> JSONValue {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        let value = try scanner.parseDocument()
        if let deferred = scanner.deferredError { throw deferred }
        return value
    }

    /// Parses a byte array (convenience for tests and tools).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 32) throws(ProtocolError) -> JSONValue {
        let result: Result<JSONValue, ProtocolError> = bytes.withUnsafeBytes { buffer in
            do throws(ProtocolError) { return .success(try parse(buffer, maxDepth: maxDepth)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// The parser's state. Value errors (overflow, NaN, duplicate keys) are *deferred*: parsing continues so that
/// a syntactically valid message still yields its `id` for the error answer; syntax errors throw at once.
struct JSONScanner {
    let base: UnsafePointer<UInt8>?
    let end: Int
    private let maxDepth: Int
    var index = 0
    private var depth = 0
    private var currentKey: String?
    /// Reused buffer for strings with escapes.
    var scratch: [UInt8] = []

    /// The first value-level error met, reported once the syntax is known to be valid.
    private(set) var deferredError: ProtocolError?
    /// The exact text of a numeric `id` member of the top-level object, for a byte-identical echo.
    private(set) var topLevelIDNumberText: String?
    /// True when the top-level `id` is named twice or its number overflowed: it is then not echoed.
    private(set) var topLevelIDUnusable = false

    init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        end = bytes.count
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(ProtocolError) -> JSONValue {
        skipWhitespace()
        guard index < end else { throw syntax("empty input") }
        let value = try parseValue()
        skipWhitespace()
        guard index == end else { throw syntax("unexpected bytes after the JSON value at byte \(index)") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(ProtocolError) -> JSONValue {
        guard index < end, let p = base else { throw syntax("unexpected end of input") }
        switch p[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "N"): try expectLiteral("NaN"); return nonFinite("NaN")
        case UInt8(ascii: "I"): try expectLiteral("Infinity"); return nonFinite("Infinity")
        case UInt8(ascii: "-") where index + 1 < end && p[index + 1] == UInt8(ascii: "I"):
            index += 1
            try expectLiteral("Infinity")
            return nonFinite("-Infinity")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw syntax("unexpected character at byte \(index)")
        }
    }

    private mutating func enterContainer() throws(ProtocolError) {
        depth += 1
        if depth > maxDepth { throw syntax("nesting deeper than \(maxDepth) levels") }
        index += 1
    }

    private mutating func parseObject() throws(ProtocolError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [(String, JSONValue)] = []
        var seen: Set<String>?
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        let enclosingKey = currentKey
        defer { currentKey = enclosingKey }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw syntax("expected a string key at byte \(index)") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw syntax("expected ':' at byte \(index)") }
            index += 1
            skipWhitespace()
            currentKey = key
            let valueStart = index
            let hadDeferredError = deferredError != nil
            let value = try parseValue()
            let isTopLevelID = depth == 1 && key == "id"
            if isTopLevelID, case .number = value, topLevelIDNumberText == nil {
                topLevelIDNumberText = text(from: valueStart, to: index)
                if deferredError != nil && !hadDeferredError { topLevelIDUnusable = true }
            }
            if isDuplicate(key, in: members, seen: &seen) {
                if isTopLevelID { topLevelIDUnusable = true }
                deferError(ProtocolError(.badMessage, "duplicate key \(quoted(key))"))
            } else {
                members.append((key, value))
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw syntax("expected ',' or '}' at byte \(index)")
            }
        }
    }

    /// Small objects scan linearly; from 16 members a set keeps hostile wide objects linear overall.
    private func isDuplicate(_ key: String, in members: [(String, JSONValue)], seen: inout Set<String>?) -> Bool {
        if seen == nil && members.count < 16 {
            for (name, _) in members where name == key { return true }
            return false
        }
        if seen == nil { seen = Set(members.map(\.0)) }
        return !seen!.insert(key).inserted
    }

    private mutating func parseArray() throws(ProtocolError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw syntax("expected ',' or ']' at byte \(index)")
            }
        }
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(ProtocolError) -> Double {
        guard let p = base else { throw syntax("unexpected end of input") }
        let start = index
        var scan = DecimalScan()
        let negative = p[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < end, isDigit(p[index]) else { throw syntax("invalid number at byte \(start)") }
        if p[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < end, isDigit(p[index]) { scan.addIntegerDigit(p[index]); index += 1 }
        }
        if index < end, p[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, isDigit(p[index]) else { throw syntax("invalid number at byte \(start)") }
            while index < end, isDigit(p[index]) { scan.addFractionDigit(p[index]); index += 1 }
        }
        if index < end, p[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end, p[index] == UInt8(ascii: "+") || p[index] == UInt8(ascii: "-") {
                exponentNegative = p[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < end, isDigit(p[index]) else { throw syntax("invalid number at byte \(start)") }
            var exponent = 0
            while index < end, isDigit(p[index]) {
                exponent = min(exponent * 10 + Int(p[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            scan.exponent += exponentNegative ? -exponent : exponent
        }
        let magnitude = scan.value ?? Double(text(from: negative ? start + 1 : start, to: index)) ?? .infinity
        if magnitude.isInfinite {
            deferError(ProtocolError(.badValue, "number \(fieldPhrase)overflows a Double"))
            return 0
        }
        if magnitude == 0 { return 0 }
        return negative ? -magnitude : magnitude
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: - Helpers

    @inline(__always) private func peek() -> UInt8? {
        guard index < end, let p = base else { return nil }
        return p[index]
    }

    private mutating func skipWhitespace() {
        guard let p = base else { return }
        while index < end {
            switch p[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(ProtocolError) {
        guard let p = base else { throw syntax("unexpected end of input") }
        let count = literal.utf8CodeUnitCount
        guard index + count <= end else { throw syntax("invalid literal at byte \(index)") }
        let bytes = literal.utf8Start
        for offset in 0..<count where p[index + offset] != bytes[offset] {
            throw syntax("invalid literal at byte \(index)")
        }
        index += count
    }

    private func text(from start: Int, to stop: Int) -> String {
        guard let p = base else { return "" }
        return String(decoding: UnsafeBufferPointer(start: p + start, count: stop - start), as: UTF8.self)
    }

    private mutating func nonFinite(_ literal: String) -> JSONValue {
        deferError(ProtocolError(.badValue, "\(literal) is not a finite number\(fieldSuffix)"))
        return .number(0)
    }

    private mutating func deferError(_ error: ProtocolError) {
        if deferredError == nil { deferredError = error }
    }

    private var fieldPhrase: String { currentKey.map { "in field \(quoted($0)) " } ?? "" }
    private var fieldSuffix: String { currentKey.map { " (field \(quoted($0)))" } ?? "" }

    func syntax(_ message: String) -> ProtocolError { ProtocolError(.badJSON, message) }
}

/// Quotes a key for an error message, cut to 64 characters so a hostile key cannot bloat the answer.
func quoted(_ key: String) -> String {
    key.count > 64 ? "\"\(key.prefix(64))…\"" : "\"\(key)\""
}
