/// Reads the bit codes `PackedBitSink` writes, refusing anything that runs past the end or does not form
/// a code (docs/PROTOCOL.md, "packed").
///
/// Guarantees: every read either returns the value written with the same code or throws
/// `PackedDecodeError`; no input makes it trap, loop without end or read outside `bytes`.
public struct PackedBitReader: Sendable {
    private let bytes: [UInt8]
    /// The next bit to read, counted from the first byte's most significant bit.
    public private(set) var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bits not read yet (including the last byte's padding).
    public var remainingBits: Int { bytes.count * 8 - position }

    /// `bits` bits (0...64) as an unsigned number, most significant first.
    public mutating func read(bits: Int) throws(PackedDecodeError) -> UInt64 {
        guard bits <= remainingBits else { throw PackedDecodeError("the frame ends inside a field") }
        var value: UInt64 = 0
        var left = bits
        while left > 0 {
            let byte = UInt64(bytes[position >> 3])
            let offset = position & 7
            let take = min(8 - offset, left)
            let chunk = (byte >> UInt64(8 - offset - take)) & ((1 << UInt64(take)) - 1)
            value = (value << UInt64(take)) | chunk
            left -= take
            position += take
        }
        return value
    }

    public mutating func readFlag() throws(PackedDecodeError) -> Bool { try read(bits: 1) == 1 }

    /// An Exp-Golomb code of order `k` (see `PackedBitSink.golomb`).
    public mutating func golomb(k: Int) throws(PackedDecodeError) -> UInt64 {
        var zeros = 0
        while try read(bits: 1) == 0 {
            zeros += 1
            guard zeros <= 64 else { throw PackedDecodeError("a number code is longer than 64 bits") }
        }
        let rest = try read(bits: zeros)
        let q: UInt64
        if zeros == 64 {
            // Only 2^64 itself (q = UInt64.max) has 65 bits.
            guard rest == 0 else { throw PackedDecodeError("a number code is larger than 64 bits") }
            q = UInt64.max
        } else {
            q = ((1 << UInt64(zeros)) | rest) - 1
        }
        let low = try read(bits: k)
        guard k == 0 || q >> UInt64(64 - k) == 0 else { throw PackedDecodeError("a number code is larger than 64 bits") }
        return (q << UInt64(k)) | low
    }

    /// A signed Exp-Golomb code of order `k` (zigzag).
    public mutating func signedGolomb(k: Int) throws(PackedDecodeError) -> Int64 {
        PackedCodes.unzigzag(try golomb(k: k))
    }

    /// Refuses what follows the last field but the zero bits that pad the last byte.
    public func expectEnd() throws(PackedDecodeError) {
        guard remainingBits < 8 else { throw PackedDecodeError("bytes follow the end of the frame") }
        guard remainingBits == 0 || bytes[position >> 3] & UInt8((1 << remainingBits) - 1) == 0 else {
            throw PackedDecodeError("the padding of the last byte is not zero")
        }
    }
}

/// Why a packed frame was refused: it is malformed, or it does not fit the baseline the decoder holds.
public struct PackedDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
