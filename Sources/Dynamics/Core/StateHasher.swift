/// A streaming 64-bit hash of bit patterns, for the state hash of docs/PROTOCOL.md ("hash"): FNV-1a taken a
/// 64-bit word at a time (xor the word in, multiply by the FNV prime) with a xor-shift after each multiply, so
/// that high bits of every word reach the low bits of the result too. A word a step keeps it fast enough to
/// hash a 1000-body pile's thousands of contacts on demand.
///
/// Guarantees: it allocates nothing; the same sequence of `mix` calls gives the same value on every run,
/// process and machine (no seed, unlike Swift's `Hasher`); a `Double` is hashed by its exact bit pattern, so
/// `0.0` and `-0.0` differ and every NaN payload is its own value (the world never holds one).
public struct StateHasher {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    public private(set) var value: UInt64 = StateHasher.offsetBasis

    public init() {}

    @inline(__always)
    public mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* StateHasher.prime
        value ^= value >> 32
    }

    @inline(__always) public mutating func mix(_ x: Double) { mix(x.bitPattern) }
    @inline(__always) public mutating func mix(_ x: Int) { mix(UInt64(bitPattern: Int64(x))) }
    @inline(__always) public mutating func mix(_ x: Int32) { mix(Int(x)) }
    @inline(__always) public mutating func mix(_ x: UInt32) { mix(UInt64(x)) }
    @inline(__always) public mutating func mix(_ x: Bool) { mix(x ? UInt64(1) : 0) }
    @inline(__always) public mutating func mix(_ v: Vec2) { mix(v.x); mix(v.y) }

    /// An optional as a presence flag and, when present, its value.
    @inline(__always) public mutating func mix(_ x: Double?) {
        mix(x != nil)
        if let x { mix(x) }
    }

    @inline(__always) public mutating func mix(_ v: Vec2?) {
        mix(v != nil)
        if let v { mix(v) }
    }

    @inline(__always) public mutating func mix(_ x: Int?) {
        mix(x != nil)
        if let x { mix(x) }
    }

    /// A string's UTF-8 bytes and length (no allocation for native strings).
    public mutating func mix(_ s: String) {
        var count = 0
        for byte in s.utf8 {
            mix(UInt64(byte))
            count += 1
        }
        mix(count)
    }

    /// The value as the wire shows it: 16 lowercase hex digits.
    public var hex: String { StateHasher.hex(value) }

    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
