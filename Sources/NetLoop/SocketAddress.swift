import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address literal plus port, resolved without DNS (`localhost` is 127.0.0.1).
///
/// Guarantees: `withSockaddr` yields a valid `sockaddr` for libuv; a host that is not a literal fails with
/// `EINVAL` instead of blocking the loop on a resolver.
public struct SocketAddress: Sendable, CustomStringConvertible {
    private var storage = sockaddr_storage()
    public let host: String
    public let port: Int

    public init(host: String, port: Int) throws(UVError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        self.host = literal
        self.port = port
        guard (0...65535).contains(port) else { throw UVError(code: Int32(UV_EINVAL.rawValue), operation: "port \(port)") }
        let rc: Int32 = withUnsafeMutableBytes(of: &storage) { raw in
            if literal.contains(":") {
                return uv_ip6_addr(literal, Int32(port), raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self))
            }
            return uv_ip4_addr(literal, Int32(port), raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self))
        }
        try uvCheck(rc, "address \(host)")
    }

    /// Reads a `sockaddr` libuv filled in (getsockname/getpeername).
    init?(storage: sockaddr_storage) {
        var copy = storage
        var name = [CChar](repeating: 0, count: 64)
        var port = 0
        let ok: Bool = withUnsafeBytes(of: &copy) { raw in
            if storage.ss_family == sa_family_t(AF_INET6) {
                let sa = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                port = Int(UInt16(bigEndian: sa.pointee.sin6_port))
                return uv_ip6_name(sa, &name, name.count) == 0
            }
            let sa = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
            port = Int(UInt16(bigEndian: sa.pointee.sin_port))
            return uv_ip4_name(sa, &name, name.count) == 0
        }
        guard ok else { return nil }
        self.storage = storage
        self.host = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.port = port
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        var copy = storage
        return withUnsafeBytes(of: &copy) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
