/// A write cursor over a buffer the caller has sized for the worst case: the snapshot hot path writes
/// through it with no capacity or uniqueness checks per byte.
///
/// Guarantees: number formatting is identical to `JSONWriter` (rounded with integer arithmetic, zeros
/// trimmed, no `-0`, NaN and infinity written as `0` and counted in `NonFiniteValues`); each number takes at
/// most `maxNumberBytes`.
struct ByteCursor {
    /// The most bytes one formatted number can take.
    static let maxNumberBytes = 32

    private(set) var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { position = start }

    @inline(__always) mutating func byte(_ value: UInt8) {
        position.pointee = value
        position += 1
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        position.update(from: text.utf8Start, count: count)
        position += count
    }

    @inline(__always) mutating func signed(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(UInt64(value.magnitude))
    }

    @inline(__always) mutating func int64(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    /// Writes a decimal integer, two digits per step.
    @inline(__always) mutating func digits(_ value: UInt64) {
        let count = ByteCursor.digitCount(value)
        var rest = value
        var cursor = position + count
        while rest >= 100 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            cursor -= 2
            cursor[0] = ByteCursor.digitPairs[pair]
            cursor[1] = ByteCursor.digitPairs[pair + 1]
        }
        if rest >= 10 {
            let pair = Int(rest) &* 2
            cursor -= 2
            cursor[0] = ByteCursor.digitPairs[pair]
            cursor[1] = ByteCursor.digitPairs[pair + 1]
        } else {
            cursor -= 1
            cursor[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        position += count
    }

    /// Writes `value` rounded half away from zero to `decimals` (0...9) fractional digits, trailing zeros
    /// trimmed. Rounds by conversion to an integer: baseline x86-64 has no rounding instruction, and a libm
    /// call per number would dominate the snapshot's cost.
    mutating func rounded(_ value: Double, decimals: Int) {
        // The snapshot's two precisions get their own copies so the divisions below are by constants.
        switch decimals {
        case 2: rounded(value, decimals: 2, scale: 100)
        case 3: rounded(value, decimals: 3, scale: 1000)
        default: rounded(value, decimals: decimals, scale: ByteCursor.scale(decimals))
        }
    }

    @inline(__always) private mutating func rounded(_ value: Double, decimals: Int, scale: UInt64) {
        let scaled = value * Double(scale)
        guard scaled.magnitude < 9.0e15 else { shortest(value.isFinite ? value.rounded() : .nan); return }
        let units = Int64(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
        if units == 0 { byte(UInt8(ascii: "0")); return }
        if units < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = units.magnitude
        digits(magnitude / scale)
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        // Fixed width first (constant divisions once inlined), then trailing zeros trimmed; the fraction is
        // non-zero, so trimming stops before the point.
        byte(UInt8(ascii: "."))
        var cursor = position + decimals
        for _ in 0..<decimals {
            cursor -= 1
            cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
        }
        position += decimals
        while position[-1] == UInt8(ascii: "0") { position -= 1 }
    }

    /// Writes the shortest text that reads back as `value` (integral values without `.0`).
    mutating func shortest(_ value: Double) {
        guard value.isFinite, value != 0 else {
            if !value.isFinite { NonFiniteValues.note() }
            byte(UInt8(ascii: "0"))
            return
        }
        if value == value.rounded(), value.magnitude < 1e15 {
            if value < 0 { byte(UInt8(ascii: "-")) }
            digits(UInt64(value.magnitude))
            return
        }
        for unit in value.description.utf8 { byte(unit) }
    }

    /// Writes a quoted, escaped string; needs at most `6 * utf8.count + 2` bytes.
    mutating func quoted(_ text: String) {
        byte(UInt8(ascii: "\""))
        for unit in text.utf8 {
            switch unit {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                byte(UInt8(ascii: "\\"))
                byte(unit)
            case 0..<0x20:
                raw("\\u00")
                byte(ByteCursor.hexDigits.utf8Start[Int(unit >> 4)])
                byte(ByteCursor.hexDigits.utf8Start[Int(unit & 0xF)])
            default:
                byte(unit)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    @inline(__always) static func digitCount(_ value: UInt64) -> Int {
        var count = 1, rest = value
        while rest >= 10_000 { rest /= 10_000; count += 4 }
        while rest >= 10 { rest /= 10; count += 1 }
        return count
    }

    /// 10^decimals; a switch rather than a table so the inlined hot path needs no lazy global.
    @inline(__always) private static func scale(_ decimals: Int) -> UInt64 {
        switch decimals {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        default: return 1_000_000_000
        }
    }

    private static var hexDigits: StaticString { "0123456789abcdef" }
    /// "00" "01" ... "99": a constant in the binary, read through its pointer.
    private static var digitPairText: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }
    private static var digitPairs: UnsafePointer<UInt8> { digitPairText.utf8Start }
}
