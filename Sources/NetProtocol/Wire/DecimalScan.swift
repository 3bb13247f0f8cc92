/// Accumulates the digits of a JSON number literal for the exact fast path of decimal-to-binary conversion
/// (Clinger): up to 19 significant digits in an integer mantissa plus a power-of-ten exponent.
struct DecimalScan {
    private var mantissa: UInt64 = 0
    private var significantDigits = 0
    private var truncated = false
    /// The power of ten that scales `mantissa` to the literal's magnitude.
    var exponent = 0

    mutating func addIntegerDigit(_ byte: UInt8) {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if mantissa == 0 && digit == 0 { return }
        if significantDigits < 19 {
            mantissa = mantissa &* 10 &+ digit
            significantDigits += 1
        } else {
            exponent += 1
            truncated = true
        }
    }

    mutating func addFractionDigit(_ byte: UInt8) {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if mantissa == 0 && digit == 0 { exponent -= 1; return }
        if significantDigits < 19 {
            mantissa = mantissa &* 10 &+ digit
            significantDigits += 1
            exponent -= 1
        } else {
            truncated = true
        }
    }

    /// The magnitude when it can be computed exactly with one IEEE operation, or known to overflow or
    /// underflow; nil when the caller must fall back to a correctly rounded library conversion.
    var value: Double? {
        if mantissa == 0 { return 0 }
        let leadingDigitExponent = exponent + significantDigits - 1
        if leadingDigitExponent > 308 { return .infinity }
        if leadingDigitExponent < -345 { return 0 }
        guard !truncated, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let scaled = Double(mantissa)
        return exponent < 0 ? scaled / DecimalScan.powersOfTen[-exponent] : scaled * DecimalScan.powersOfTen[exponent]
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
