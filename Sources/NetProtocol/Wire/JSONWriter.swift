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
        needsComma = true
    }

    public mutating func int(_ value: Int) {
        separate()
        appendFormatted { $0.signed(value) }
        needsComma = true
    }

    public mutating func uint(_ value: UInt64) {
        separate()
        appendFormatted { $0.digits(value) }
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
        appendFormatted { $0.shortest(value) }
        needsComma = true
    }

    /// Writes a number rounded to `decimals` fractional digits (0...9), trailing zeros trimmed, using
    /// integer arithmetic only (the snapshot hot path).
    public mutating func number(_ value: Double, decimals: Int) {
        separate()
        appendFormatted { $0.rounded(value, decimals: min(max(decimals, 0), 9)) }
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

    // MARK: - Internals

    @inline(__always) mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Formats one number with `ByteCursor` (the snapshot path's formatter) and appends it.
    private mutating func appendFormatted(_ format: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ByteCursor.maxNumberBytes) { scratch in
            guard let start = scratch.baseAddress else { return }
            var cursor = ByteCursor(start)
            format(&cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor.position - start))
        }
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
