@testable import NetProtocol

/// The bit codes of packed frames (docs/PROTOCOL.md, "packed") written the plain way, a byte at a time into a
/// growing array: the tests' reference for `PackedBitSink`, the encoder's one writer, which must write the
/// very same bits (a second, independent copy on purpose).
///
/// Guarantees: `bytes` holds every bit written, in order, most significant bit of each byte first, the last
/// byte padded with zero bits; any `UInt64` (and any `Int64` through the signed codes) can be written, and
/// `PackedBitReader` reads back exactly the values written with the same codes.
struct PackedReferenceBitWriter {
    private(set) var storage: [UInt8] = []
    /// Bits not yet in `storage`, right-aligned; fewer than 8 between calls.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    init(capacity: Int = 64) { storage.reserveCapacity(capacity) }

    /// Every bit written so far, the last byte padded with zeros.
    var bytes: [UInt8] {
        guard pendingCount > 0 else { return storage }
        return storage + [UInt8(truncatingIfNeeded: pending << (8 - pendingCount))]
    }

    /// Bits written so far.
    var bitCount: Int { storage.count * 8 + pendingCount }

    /// The low `bits` bits of `value` (0...64 bits), most significant first.
    @inline(__always) mutating func write(_ value: UInt64, bits: Int) {
        if bits > 32 {
            write(value >> 32, bits: bits - 32)
            write(value & 0xFFFF_FFFF, bits: 32)
            return
        }
        guard bits > 0 else { return }
        pending = (pending << UInt64(bits)) | (value & (UInt64.max >> UInt64(64 - bits)))
        pendingCount += bits
        while pendingCount >= 8 {
            pendingCount -= 8
            storage.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingCount)))
        }
        pending &= (1 << UInt64(pendingCount)) &- 1
    }

    /// One bit: 1 for true.
    @inline(__always) mutating func write(_ flag: Bool) { write(flag ? 1 : 0, bits: 1) }

    /// Exp-Golomb of order `k` (0...63): `q = value >> k` as order 0 — as many zero bits as `q + 1` has bits
    /// after its first, then `q + 1` in binary — followed by the low `k` bits of `value`.
    @inline(__always) mutating func golomb(_ value: UInt64, k: Int) {
        let q = value >> UInt64(k)
        let (w, overflow) = q.addingReportingOverflow(1)
        if overflow {
            // q + 1 = 2^64: 64 zeros, a one, then 64 zeros.
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
    @inline(__always) mutating func signedGolomb(_ value: Int64, k: Int) {
        golomb(PackedCodes.zigzag(value), k: k)
    }
}
