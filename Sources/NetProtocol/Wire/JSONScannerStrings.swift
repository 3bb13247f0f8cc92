/// String scanning for `JSONScanner`: strict UTF-8 validation, escapes and surrogate pairs.
extension JSONScanner {
    /// Parses a string starting at its opening quote, validating UTF-8 and escapes.
    mutating func parseString() throws(ProtocolError) -> String {
        guard let p = base else { throw syntax("unexpected end of input") }
        index += 1
        let start = index
        while index < end {
            let byte = p[index]
            if byte == UInt8(ascii: "\"") {
                let result = String(decoding: UnsafeBufferPointer(start: p + start, count: index - start), as: UTF8.self)
                index += 1
                return result
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw syntax("control character 0x\(String(byte, radix: 16)) in a string at byte \(index)") }
            if byte < 0x80 { index += 1 } else { try skipUTF8Sequence() }
        }
        throw syntax("unterminated string")
    }

    /// The slow path once a backslash is met: copies into `scratch`, decoding escapes to UTF-8.
    private mutating func parseEscapedString(from start: Int) throws(ProtocolError) -> String {
        guard let p = base else { throw syntax("unexpected end of input") }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: p + start, count: index - start))
        while index < end {
            let byte = p[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape()
            case 0..<0x20:
                throw syntax("control character 0x\(String(byte, radix: 16)) in a string at byte \(index)")
            case 0x20..<0x80:
                scratch.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(start: p + sequenceStart, count: index - sequenceStart))
            }
        }
        throw syntax("unterminated string")
    }

    private mutating func appendEscape() throws(ProtocolError) {
        guard let p = base, index + 1 < end else { throw syntax("unterminated escape") }
        let escaped = p[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < end, p[index] == UInt8(ascii: "\\"), p[index + 1] == UInt8(ascii: "u") else {
                    throw syntax("lone high surrogate escape")
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw syntax("high surrogate not followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw syntax("lone low surrogate escape")
            }
            appendUTF8(scalar)
        default:
            throw syntax("invalid escape at byte \(index - 1)")
        }
    }

    private mutating func readHex4() throws(ProtocolError) -> UInt32 {
        guard let p = base, index + 4 <= end else { throw syntax("truncated \\u escape") }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = p[index + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntax("invalid hex digit in \\u escape at byte \(index + offset)")
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `index` (Unicode Table 3-7: no overlongs, no surrogates,
    /// nothing above U+10FFFF) and steps over it.
    private mutating func skipUTF8Sequence() throws(ProtocolError) {
        guard let p = base else { throw syntax("unexpected end of input") }
        let lead = p[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw syntax("invalid UTF-8 at byte \(index)")
        }
        guard index + length <= end, secondRange.contains(p[index + 1]) else { throw syntax("invalid UTF-8 at byte \(index)") }
        for offset in 2..<max(length, 2) where !(0x80...0xBF).contains(p[index + offset]) {
            throw syntax("invalid UTF-8 at byte \(index)")
        }
        index += length
    }
}
