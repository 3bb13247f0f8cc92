import CNettle

/// A packed frame as one NDJSON line over TCP (docs/PROTOCOL.md, "packed"):
/// `{"type":"packed","tick":T,"data":"<base64 of the frame's bytes>"}`, so `nc` and `jq` still show it.
///
/// Guarantees: `encode` writes standard base64 with `=` padding (nettle), ending in `"\n"`; `decodeData`
/// accepts exactly that alphabet and padding and returns nil for anything else.
public enum PackedLine {
    public static func encode(tick: UInt64, frame: [UInt8]) -> [UInt8] {
        var line = Array("{\"type\":\"packed\",\"tick\":\(tick),\"data\":\"".utf8)
        line += base64(frame)
        line += Array("\"}\n".utf8)
        return line
    }

    /// Standard base64 with padding.
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        var out = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4)
        out.withUnsafeMutableBufferPointer { dst in
            dst.withMemoryRebound(to: CChar.self) { chars in
                bytes.withUnsafeBufferPointer { nettle_base64_encode_raw(chars.baseAddress, $0.count, $0.baseAddress) }
            }
        }
        return out
    }

    /// The bytes of strict base64 text (a multiple of four characters, `=` only as padding); nil otherwise.
    public static func decodeData(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        let isAlphabet = { (c: UInt8) in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 43 || c == 47
        }
        let body = chars.prefix { $0 != UInt8(ascii: "=") }
        guard chars.count % 4 == 0, chars.count - body.count <= 2, body.allSatisfy(isAlphabet),
              chars[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
        guard !chars.isEmpty else { return [] }
        var context = base64_decode_ctx()
        nettle_base64_decode_init(&context)
        var out = [UInt8](repeating: 0, count: chars.count / 4 * 3 + 3)
        var length = out.count
        let ok = chars.withUnsafeBufferPointer { src in
            src.withMemoryRebound(to: CChar.self) { text in
                out.withUnsafeMutableBufferPointer {
                    nettle_base64_decode_update(&context, &length, $0.baseAddress, text.count, text.baseAddress)
                }
            }
        }
        guard ok == 1, nettle_base64_decode_final(&context) == 1 else { return nil }
        return Array(out.prefix(length))
    }
}
