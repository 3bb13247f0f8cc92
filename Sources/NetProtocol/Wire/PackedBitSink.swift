/// Writes the bit codes of packed frames (docs/PROTOCOL.md, "packed"), the encoder's one bit writer:
/// fixed-width fields and Exp-Golomb codes, most significant bit first, straight into a buffer the caller
/// sized beforehand, a 64-bit word at a time.
///
/// Guarantees: any `UInt64` (and any `Int64` through the signed codes) can be written, and `PackedBitReader`
/// reads back exactly the values written with the same codes; `finish` pads the last byte with zeros. It
/// writes at most `ceil(bits / 8) + 8` bytes from its start (8 bytes of slack for its whole-word stores), so
/// a buffer of that size never overflows. Bounds are the caller's promise (`PackedEncoder` sizes the buffer
/// from the codes' lengths), checked in debug builds.
struct PackedBitSink {
    private let start: UnsafeMutablePointer<UInt8>
    private let end: UnsafeMutablePointer<UInt8>
    private var next: UnsafeMutablePointer<UInt8>
    /// Bits not yet stored for good, left-aligned; `count` (< 8 between calls) of them are meaningful.
    private var word: UInt64 = 0
    private var count = 0

    /// The bytes needed for `bits` bits, slack included.
    static func capacity(bits: Int) -> Int { (bits + 7) / 8 + 8 }

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress!
        end = start + buffer.count
        next = start
    }

    /// `bits` (1...56) low bits of `value`, whose higher bits must be zero.
    @inline(__always) private mutating func put(_ value: UInt64, bits: Int) {
        assert(bits > 0 && bits <= 56 && value >> UInt64(bits) == 0 && next + 8 <= end)
        word |= value &<< UInt64(64 - count - bits)
        count += bits
        // Stores all eight bytes (the extra ones are rewritten later) and keeps only the partial byte.
        UnsafeMutableRawPointer(next).storeBytes(of: word.bigEndian, as: UInt64.self)
        let whole = count >> 3
        next += whole
        word = word &<< UInt64(whole << 3)
        count &= 7
    }

    /// The low `bits` bits of `value` (0...64 bits).
    @inline(__always) mutating func write(_ value: UInt64, bits: Int) {
        var left = bits
        while left > 32 {
            left -= 32
            put((value >> UInt64(left)) & 0xFFFF_FFFF, bits: 32)
        }
        if left > 0 { put(value & (UInt64.max >> UInt64(64 - left)), bits: left) }
    }

    /// The Exp-Golomb code of order `k` of `value` as one field (`bits` wide, its leading zeros the code's
    /// zeros) when it is at most 56 bits long; bits 0 when it is longer (write it with `golomb`).
    /// The field is `value + 2^k`: `q + 1` (q = value >> k) shifted over the low k bits of `value`, which
    /// is `(q + 1)·2^k + (value mod 2^k)`; its bit length L makes the code `2·(L − k) − 1 + k` bits long.
    @inline(__always) static func golombCode(_ value: UInt64, k: Int) -> (code: UInt64, bits: Int) {
        let code = value &+ (1 &<< UInt64(truncatingIfNeeded: k))
        let total = 2 &* (64 &- code.leadingZeroBitCount) &- k &- 1
        // `code <= value`: the sum wrapped (2^64 or more): the long way.
        guard code > value, total <= 56 else { return (0, 0) }
        return (code, total)
    }

    /// Bits written so far.
    var bitCount: Int { (next - start) * 8 + count }

    /// Exp-Golomb of order `k` (0...63): `q = value >> k` as order 0 — as many zero bits as `q + 1` has bits
    /// after its first, then `q + 1` in binary — followed by the low `k` bits of `value`; one store when the
    /// code fits 56 bits.
    @inline(__always) mutating func golomb(_ value: UInt64, k: Int) {
        let (code, bits) = PackedBitSink.golombCode(value, k: k)
        if bits > 0 { put(code, bits: bits) } else { slowGolomb(value, k: k) }
    }

    /// A body's four codes (orders `k`), gathered into as few stores as fit 56 bits: usually one.
    @inline(__always) mutating func golomb4(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64,
                                            k: (Int, Int, Int, Int)) {
        var field: UInt64 = 0, width = 0
        @inline(__always) func add(_ value: UInt64, _ k: Int) {
            let (code, bits) = PackedBitSink.golombCode(value, k: k)
            if bits == 0 || width + bits > 56 {
                if width > 0 { put(field, bits: width) }
                field = 0
                width = 0
                if bits == 0 {
                    slowGolomb(value, k: k)
                    return
                }
            }
            field = (field &<< UInt64(bits)) | code
            width += bits
        }
        add(a, k.0)
        add(b, k.1)
        add(c, k.2)
        add(d, k.3)
        if width > 0 { put(field, bits: width) }
    }

    /// A code longer than 56 bits, field by field (q + 1 = 2^64: 64 zeros, a one, then 64 zeros).
    private mutating func slowGolomb(_ value: UInt64, k: Int) {
        let q = value >> UInt64(k)
        let (w, overflow) = q.addingReportingOverflow(1)
        if overflow {
            write(0, bits: 64)
            write(1, bits: 1)
            write(0, bits: 64)
        } else {
            let length = 64 - w.leadingZeroBitCount
            write(0, bits: length - 1)
            write(w, bits: length)
        }
        write(value, bits: k)
    }

    /// A signed value as Exp-Golomb of order `k` of its zigzag form (0, -1, 1, -2, 2 … → 0, 1, 2, 3, 4 …).
    @inline(__always) mutating func signedGolomb(_ value: Int64, k: Int) { golomb(PackedCodes.zigzag(value), k: k) }

    /// Stores the partial last byte (zero-padded) and returns the bytes written.
    mutating func finish() -> Int {
        if count > 0 {
            next.pointee = UInt8(truncatingIfNeeded: word >> 56)
            next += 1
            word = 0
            count = 0
        }
        return next - start
    }
}
