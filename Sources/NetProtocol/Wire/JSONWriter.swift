/// A byte builder for compact JSON, used by every encoder of the protocol.
///
/// Guarantees: output is valid UTF-8 JSON without whitespace; commas and colons are placed automatically
/// (call `key` before each member value); strings are escaped per RFC 8259; numbers are never NaN or
/// infinite (those are written as `0`), integral values are written without `.0`, and `-0` is written `0`.
public struct JSONWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets the content but keeps the allocated capacity (when the buffer is not shared).
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    // MARK: - Structure

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes a member name and its colon; the next value written is that member's value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    /// Writes a dynamic member name (escaped) and its colon.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// Appends an escaped, quoted string without separator logic.
    mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for (offset, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                appendEscape(byte)
                runStart = offset + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude.toUInt64)
        needsComma = true
    }

    public mutating func uint(_ value: UInt64) {
        separate()
        appendDigits(value)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        if value { append(raw: "true") } else { append(raw: "false") }
        needsComma = true
    }

    public mutating func null() {
        separate()
        append(raw: "null")
        needsComma = true
    }

    /// Writes a number with the shortest text that reads back as the same `Double`.
    public mutating func number(_ value: Double) {
        separate()
        appendShortest(value)
        needsComma = true
    }

    /// Writes a number rounded to `decimals` fractional digits (0...9), trailing zeros trimmed, using
    /// integer arithmetic only (the snapshot hot path).
    public mutating func number(_ value: Double, decimals: Int) {
        separate()
        appendRounded(value, decimals: decimals)
        needsComma = true
    }

    /// Writes any JSON value, members in order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case let .bool(flag): bool(flag)
        case let .number(number): self.number(number)
        case let .string(text): string(text)
        case let .array(elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case let .object(members):
            beginObject()
            for (name, member) in members { key(name); self.value(member) }
            endObject()
        }
    }

    /// Writes a message id: a string id escaped, a numeric id as its original text.
    public mutating func id(_ id: MessageID) {
        switch id {
        case let .string(text): string(text)
        case let .number(text):
            guard isJSONNumberText(text) else { string(text); return }
            separate()
            bytes.append(contentsOf: text.utf8)
            needsComma = true
        }
    }

    /// Appends bytes verbatim (no separator logic): the caller guarantees they keep the JSON valid.
    public mutating func append(raw text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends bytes verbatim (no separator logic).
    public mutating func append(raw data: some Sequence<UInt8>) {
        bytes.append(contentsOf: data)
    }

    /// Appends the line terminator.
    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    // MARK: - Internals shared with SnapshotEncoder

    @inline(__always) mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Records that a value was appended raw, so the next value gets its comma.
    mutating func markValueWritten() { needsComma = true }

    @inline(__always) mutating func appendSigned(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude))
    }

    @inline(__always) mutating func appendDigits(_ value: UInt64) {
        if value < 10 { bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)); return }
        let start = bytes.count
        var rest = value
        while rest > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        }
        var low = start, high = bytes.count - 1
        while low < high { bytes.swapAt(low, high); low += 1; high -= 1 }
    }

    mutating func appendRounded(_ value: Double, decimals: Int) {
        let scale = JSONWriter.scales[decimals]
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, scaled.magnitude < 9.0e15 else { appendShortest(value.rounded()); return }
        let units = Int64(scaled)
        if units == 0 { bytes.append(UInt8(ascii: "0")); return }
        if units < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = units.magnitude
        appendDigits(magnitude / scale)
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        var width = decimals
        while fraction % 10 == 0 { fraction /= 10; width -= 1 }
        bytes.append(UInt8(ascii: "."))
        var padding = width - digitCount(fraction)
        while padding > 0 { bytes.append(UInt8(ascii: "0")); padding -= 1 }
        appendDigits(fraction)
    }

    mutating func appendShortest(_ value: Double) {
        guard value.isFinite, value != 0 else { bytes.append(UInt8(ascii: "0")); return }
        if value == value.rounded(), value.magnitude < 1e15 {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(UInt64(value.magnitude))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    private func digitCount(_ value: UInt64) -> Int {
        var count = 1, rest = value
        while rest >= 10 { rest /= 10; count += 1 }
        return count
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }

    private static let scales: [UInt64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]
}

private extension UInt {
    var toUInt64: UInt64 { UInt64(self) }
}

/// True when `text` matches the RFC 8259 number grammar exactly.
func isJSONNumberText(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    func digits() -> Int {
        let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        bytes = bytes.dropFirst(count)
        return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    if bytes.first == UInt8(ascii: "0") { bytes = bytes.dropFirst() } else if digits() == 0 { return false }
    if bytes.first == UInt8(ascii: ".") { bytes = bytes.dropFirst(); if digits() == 0 { return false } }
    if let e = bytes.first, e | 0x20 == UInt8(ascii: "e") {
        bytes = bytes.dropFirst()
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if digits() == 0 { return false }
    }
    return bytes.isEmpty
}
