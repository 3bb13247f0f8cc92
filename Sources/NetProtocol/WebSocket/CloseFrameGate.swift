/// Decides how received bytes are handed to wslay so that every Close frame reaches it in one piece.
///
/// Why: wslay (1.1.1, and upstream at the time of writing) checks the UTF-8 of a Close frame's reason one
/// read chunk at a time and skips the first two bytes of *every* chunk as if each began with the status
/// code. A Close frame split across reads is then judged by where the split fell: a valid reason could be
/// refused with 1007, an invalid one let through, and a half-arrived frame could be refused before the
/// rest came. Handed whole, in a read of its own, the frame is judged once and correctly.
///
/// This reads only the fields that give a frame's length (RFC 6455 5.2: the opcode, the mask bit, the
/// 7-bit length and its 16- or 64-bit extension); wslay still parses and checks every frame. The gate
/// walks the same bytes in the same order as wslay, so it knows where each frame starts.
///
/// Guarantees: `plan(_:)` returns how many of the pending bytes may be handed over now (all of them,
/// except a Close frame that has not fully arrived, which waits: at most 2 + 4 + 125 bytes) and the offset
/// where a Close frame starts, at which a read must end so that the frame begins a read of its own.
struct CloseFrameGate {
    /// Header bytes of the frame being read (up to 14), or empty when reading a payload.
    private var header: [UInt8] = []
    /// Payload bytes of the current frame not yet walked past.
    private var payloadLeft: UInt64 = 0

    struct Plan: Equatable {
        /// Bytes that may be handed to wslay now; the rest waits for more input.
        var deliverable: Int
        /// Offsets (ascending) where a read must stop: each Close frame's start and end.
        var cuts: [Int]
    }

    /// Walks `bytes` (the pending input, in arrival order, after what earlier plans delivered) and says
    /// how to hand them over. The walk advances only over the deliverable bytes.
    mutating func plan(_ bytes: UnsafeRawBufferPointer) -> Plan {
        var cuts: [Int] = []
        var offset = 0
        while offset < bytes.count {
            if payloadLeft > 0 {
                let step = Int(min(payloadLeft, UInt64(bytes.count - offset)))
                payloadLeft -= UInt64(step)
                offset += step
                continue
            }
            // At a frame start (header empty) or inside a header.
            if header.isEmpty, bytes[offset] & 0x0F == 0x8 {
                // A Close frame: hand it over only whole, as a read of its own.
                guard let length = Self.frameLength(header: bytes, from: offset) else {
                    return Plan(deliverable: offset, cuts: cuts)
                }
                guard length <= bytes.count - offset else { return Plan(deliverable: offset, cuts: cuts) }
                cuts.append(offset)
                cuts.append(offset + length)
                offset += length
                continue
            }
            header.append(bytes[offset])
            offset += 1
            if let needed = Self.headerLength(header), header.count == needed {
                payloadLeft = Self.payloadLength(header)
                header.removeAll(keepingCapacity: true)
            }
        }
        return Plan(deliverable: bytes.count, cuts: cuts)
    }

    /// The header's length once its second byte is known (2, plus 2 or 8 for an extended length, plus 4
    /// for a mask key).
    private static func headerLength<C: Collection>(_ header: C) -> Int? where C.Element == UInt8, C.Index == Int {
        guard header.count >= 2 else { return nil }
        let second = header[header.startIndex + 1]
        let extended = switch second & 0x7F { case 126: 2; case 127: 8; default: 0 }
        return 2 + extended + (second & 0x80 != 0 ? 4 : 0)
    }

    private static func payloadLength<C: Collection>(_ header: C) -> UInt64 where C.Element == UInt8, C.Index == Int {
        let start = header.startIndex
        let short = UInt64(header[start + 1] & 0x7F)
        guard short >= 126 else { return short }
        let count = short == 126 ? 2 : 8
        return (0..<count).reduce(UInt64(0)) { $0 << 8 | UInt64(header[start + 2 + $1]) }
    }

    /// The whole length of the frame starting at `offset` in `bytes`, when its header has arrived.
    private static func frameLength(header bytes: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        let available = bytes.count - offset
        guard available >= 2 else { return nil }
        let slice = Array(bytes[offset..<min(bytes.count, offset + 14)])
        guard let needed = headerLength(slice), slice.count >= needed else { return nil }
        let payload = payloadLength(slice)
        // A Close frame over 125 bytes is refused by wslay's frame layer at its header; hand it over as is.
        guard payload <= 125 else { return min(available, needed) }
        return needed + Int(payload)
    }
}
