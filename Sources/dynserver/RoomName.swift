import DynRoom
#if canImport(Glibc)
import Glibc
#endif

/// Room names and tokens (docs/PROTOCOL.md, Rooms).
///
/// Guarantees: a valid name is 1...64 bytes of `A-Z a-z 0-9 - _ .` starting with a letter or a digit, so it
/// is safe as a file name in `--state-dir` and in a URL path (`/r/NAME`) without escaping; a token is 32 hex
/// digits from the system's random source.
enum RoomName {
    static func isValid(_ name: some StringProtocol) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), isAlphanumeric(bytes[0]) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A fresh `room_token`.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}
