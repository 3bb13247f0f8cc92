/// The fixed parts of a packed frame's layout (docs/PROTOCOL.md, "packed"), shared by encoder and decoder.
enum PackedLayout {
    /// The first byte: flags in its high four bits, the low four reserved (zero).
    static let keyframeFlag: UInt64 = 0x80
    static let pausedFlag: UInt64 = 0x40
    static let heldFlag: UInt64 = 0x20
    static let dragsFlag: UInt64 = 0x10
    static let reservedBits: UInt64 = 0x0F
    /// The Exp-Golomb order of a delta frame's time change (ms; 33 at 30 frames a second).
    static let timeOrder = 4
    /// The order of a drag's positions and grab offset (1/100 pt).
    static let dragOrder = 8
    /// Bits of a declared Exp-Golomb order.
    static let orderBits = 4
}
