/// Comparing a secret a client sent with the one configured (`--token`, `--admin-token`, a room's
/// `room_token`; docs/PROTOCOL.md, Security).
///
/// Guarantees: the time taken depends only on the lengths, never on where the first differing byte is, so
/// a client cannot learn a token byte by byte by timing refusals; nil on either side is never equal.
enum TokenComparison {
    static func matches(_ given: String?, _ expected: String?) -> Bool {
        guard let given, let expected else { return false }
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        for i in 0..<b.count {
            difference |= (i < a.count ? a[i] : 0) ^ b[i]
        }
        return difference == 0
    }
}
