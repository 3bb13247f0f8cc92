/// The page's icon, served at `GET /favicon.ico`: a 32 x 32 ICO (one 32-bit BMP image) drawn here in code, a
/// dark rounded square holding an amber ball resting on a blue box, so that no binary file is needed.
///
/// Guarantees: `bytes` is a well-formed ICO (ICONDIR, one ICONDIRENTRY, a BITMAPINFOHEADER of double
/// height, BGRA pixels bottom-up, an all-opaque AND mask), the same bytes on every call.
enum Favicon {
    static let size = 32
    static let bytes: [UInt8] = encode()

    private static func encode() -> [UInt8] {
        let n = size
        let pixelBytes = n * n * 4
        let maskBytes = n * ((n + 31) / 32) * 4
        let imageBytes = 40 + pixelBytes + maskBytes
        var out: [UInt8] = []
        out.reserveCapacity(6 + 16 + imageBytes)
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16((v >> 16) & 0xFFFF) }
        // ICONDIR: reserved, type 1 (icon), one image.
        u16(0); u16(1); u16(1)
        // ICONDIRENTRY: width, height, no palette, reserved, 1 plane, 32 bpp, size, offset.
        out += [UInt8(n), UInt8(n), 0, 0]
        u16(1); u16(32); u32(imageBytes); u32(6 + 16)
        // BITMAPINFOHEADER: the height counts the XOR image and the AND mask.
        u32(40); u32(n); u32(n * 2); u16(1); u16(32); u32(0); u32(pixelBytes + maskBytes); u32(0); u32(0); u32(0); u32(0)
        for row in (0..<n).reversed() {
            for column in 0..<n {
                let (r, g, b, a) = pixel(x: Double(column) + 0.5, y: Double(row) + 0.5)
                out += [b, g, r, a]
            }
        }
        out += [UInt8](repeating: 0, count: maskBytes)
        return out
    }

    /// The colour at (x, y) in a 32 x 32 picture, y down.
    private static func pixel(x: Double, y: Double) -> (UInt8, UInt8, UInt8, UInt8) {
        let s = Double(size)
        // The ball: centre (16, 11), radius 6.5, amber.
        if (x - 16) * (x - 16) + (y - 11) * (y - 11) <= 6.5 * 6.5 { return (0xE0, 0xB8, 0x5A, 0xFF) }
        // The box under it, blue.
        if x >= 8, x <= 24, y >= 17.5, y <= 27 { return (0x4A, 0x90, 0xD9, 0xFF) }
        // The background: a dark square with corners rounded by 6.
        let r = 6.0
        let cx = min(max(x, r), s - r), cy = min(max(y, r), s - r)
        if (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r { return (0x1E, 0x21, 0x27, 0xFF) }
        return (0, 0, 0, 0)
    }
}
