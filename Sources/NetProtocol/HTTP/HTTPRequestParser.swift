import CHTTPParser

/// The head of one HTTP/1.x request: method, target, version and headers as sent.
public struct HTTPRequestHead: Sendable {
    public var method = ""
    public var target = ""
    public var versionMajor = 1
    public var versionMinor = 1
    public var headers: [(name: String, value: String)] = []
    /// The parser saw `Connection: upgrade` with an `Upgrade` header (a WebSocket handshake, for instance).
    public var upgrade = false

    /// The value of the first header called `name` (compared case-insensitively).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// How many headers are called `name` (compared case-insensitively).
    public func headers(named name: String) -> Int { headers(name).count }

    /// Every value of the headers called `name` (compared case-insensitively), in order.
    public func headers(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The target's path without its query string, for the origin form (`/healthz?x`) and the absolute
    /// form (`http://host/healthz?x`, which RFC 9112 3.2.2 says a server must accept): split by
    /// http-parser's URL parser. An absolute target without a path is `/`.
    public var path: Substring {
        if target.hasPrefix("/") || target == "*" {
            return target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        var url = http_parser_url()
        http_parser_url_init(&url)
        let bytes = Array(target.utf8)
        let rc = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { http_parser_parse_url($0.baseAddress, $0.count, 0, &url) }
        }
        guard rc == 0, url.field_set & (1 << UF_SCHEMA.rawValue) != 0 else { return Substring(target) }
        guard url.field_set & (1 << UF_PATH.rawValue) != 0 else { return "/" }
        // `field_data[UF_MAX]` (an array of anonymous structs) is not imported into Swift: read it by its C
        // layout, two uint16_t (field_set, port) and then an (off, len) pair of uint16_t per field.
        let (offset, length) = withUnsafeBytes(of: url) { raw in
            let at = 4 + 4 * Int(UF_PATH.rawValue)
            return (Int(raw.load(fromByteOffset: at, as: UInt16.self)), Int(raw.load(fromByteOffset: at + 2, as: UInt16.self)))
        }
        guard offset + length <= bytes.count else { return "/" }
        return Substring(String(decoding: bytes[offset..<offset + length], as: UTF8.self))
    }
}

/// One HTTP/1.x request read with Node's http-parser (libhttp-parser), incrementally, as bytes arrive.
///
/// Guarantees: never reads past the end of the first request (for an upgrade, `consumed` is where the new
/// protocol's bytes begin); a head whose target, header names and values add up to more than `maxHeadBytes`
/// fails with 431 (counted on what the head says, so the verdict does not depend on how the bytes were split;
/// http-parser itself stops any head at 80 KiB, also with 431), a body longer than `maxBodyBytes` with 413,
/// a method http-parser does not know with 501, anything else it rejects with 400; after the first outcome
/// other than `.needMore`, further input is ignored. A request both too long and malformed gets whichever of
/// 431 and 400 is noticed first.
///
/// On top of http-parser's callbacks, where it is more lenient than RFC 9112, it also rejects: whitespace
/// between a header name and its colon (section 5.1: 400), an HTTP/1.1 request without `Host` or with more
/// than one (section 3.2: 400), and a major version other than 1 (505).
public final class HTTPRequestParser {
    public enum Outcome {
        case needMore
        /// A complete request; `consumed` bytes of the last feed belonged to it.
        case request(HTTPRequestHead, consumed: Int)
        case failed(status: Int, reason: String)
    }

    public let maxHeadBytes: Int
    public let maxBodyBytes: Int
    private let parser: UnsafeMutablePointer<http_parser>
    private let settings: UnsafeMutablePointer<http_parser_settings>
    private var head = HTTPRequestHead()
    private var url: [UInt8] = []
    private var field: [UInt8] = []
    private var value: [UInt8] = []
    private var lastWasValue = false
    private var headPartBytes = 0
    private var bodyBytes = 0
    private var headersComplete = false
    private var messageComplete = false
    private var failure: (status: Int, reason: String)?
    private var finished = false
    /// The first bytes of the request, to tell an unknown method (501) from garbage (400).
    private var start: [UInt8] = []
    /// http-parser refused the method; the verdict waits for the rest of the request line.
    private var methodUnknown = false
    private static let startBytes = 256

    public init(maxHeadBytes: Int = 8192, maxBodyBytes: Int = 4096) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        parser = .allocate(capacity: 1)
        parser.initialize(to: http_parser())
        http_parser_init(parser, HTTP_REQUEST)
        settings = .allocate(capacity: 1)
        settings.initialize(to: http_parser_settings())
        http_parser_settings_init(settings)
        settings.pointee.on_url = { p, at, length in HTTPRequestParser.owner(p).appendHead(.url, at, length) }
        settings.pointee.on_header_field = { p, at, length in
            let me = HTTPRequestParser.owner(p)
            if me.lastWasValue, !me.finishHeader() { return 1 }
            me.lastWasValue = false
            return me.appendHead(.field, at, length)
        }
        settings.pointee.on_header_value = { p, at, length in
            let me = HTTPRequestParser.owner(p)
            me.lastWasValue = true
            return me.appendHead(.value, at, length)
        }
        settings.pointee.on_headers_complete = { p in
            let me = HTTPRequestParser.owner(p)
            if me.lastWasValue || !me.field.isEmpty, !me.finishHeader() { return -1 }
            me.headersComplete = true
            // Any result but 0, 1 or 2 makes http-parser stop with an error; `failure` says which.
            if let failure = me.headRuleBroken(major: Int(p!.pointee.http_major), minor: Int(p!.pointee.http_minor)) {
                me.failure = failure
                return -1
            }
            return 0
        }
        settings.pointee.on_body = { p, _, length in
            let me = HTTPRequestParser.owner(p)
            me.bodyBytes += length
            guard me.bodyBytes <= me.maxBodyBytes else {
                me.failure = (413, "request body longer than \(me.maxBodyBytes) bytes")
                return 1
            }
            return 0
        }
        settings.pointee.on_message_complete = { p in
            let me = HTTPRequestParser.owner(p)
            me.messageComplete = true
            // Stop right after this request: what follows belongs to an upgraded protocol or is ignored.
            http_parser_pause(p, 1)
            return 0
        }
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        parser.deallocate()
        settings.deallocate()
    }

    /// Feeds the next bytes received; returns what is known so far.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        guard !finished else { return .needMore }
        if start.count < Self.startBytes { start += bytes.prefix(Self.startBytes - start.count) }
        if methodUnknown { return judgeUnknownMethod() }
        let parsed = http_parser_execute(parser, settings, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        if let failure { return finish(.failed(status: failure.status, reason: failure.reason)) }
        if messageComplete || (headersComplete && parser.pointee.upgrade == 1) {
            head.method = String(cString: http_method_str(http_method(rawValue: parser.pointee.method)))
            head.target = String(decoding: url, as: UTF8.self)
            head.versionMajor = Int(parser.pointee.http_major)
            head.versionMinor = Int(parser.pointee.http_minor)
            head.upgrade = parser.pointee.upgrade == 1
            return finish(.request(head, consumed: parsed))
        }
        let errno = http_errno(rawValue: parser.pointee.http_errno)
        if errno != HPE_OK {
            if errno == HPE_INVALID_METHOD {
                methodUnknown = true
                return judgeUnknownMethod()
            }
            let status = errno == HPE_HEADER_OVERFLOW ? 431 : 400
            return finish(.failed(status: status, reason: "malformed request (\(String(cString: http_errno_name(errno))))"))
        }
        return .needMore
    }

    /// After http-parser refused the method: 501 when the request line (once whole, or its first
    /// `startBytes`) is an HTTP request line with an unknown method, else 400. Judged on the whole line, so
    /// the verdict does not depend on how the bytes were split; early only when no later byte can change it.
    private func judgeUnknownMethod() -> Outcome {
        let space = start.firstIndex(of: UInt8(ascii: " ")) ?? start.endIndex
        if !start[..<space].allSatisfy(Self.isTokenCharacter) {
            return finish(.failed(status: 400, reason: "malformed request (not an HTTP request line)"))
        }
        guard start.contains(UInt8(ascii: "\n")) || start.count >= Self.startBytes else { return .needMore }
        if Self.onlyTheMethodIsUnknown(start) {
            let method = String(decoding: start[..<space].prefix(32), as: UTF8.self)
            return finish(.failed(status: 501, reason: "method \(method) is not implemented: only GET and HEAD are served"))
        }
        return finish(.failed(status: 400, reason: "malformed request (HPE_INVALID_METHOD)"))
    }

    /// True when `start` is a request line whose method http-parser does not know but which it would
    /// accept with `GET` in its place: a method token, a space, then a target and version it parses.
    private static func onlyTheMethodIsUnknown(_ start: [UInt8]) -> Bool {
        guard let space = start.firstIndex(of: UInt8(ascii: " ")), space > 0,
              start[..<space].allSatisfy(isTokenCharacter) else { return false }
        // The request line only (through its LF): what follows it may not have arrived yet.
        let lineEnd = start.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? start.endIndex
        guard space < lineEnd else { return false }
        let probe = Array("GET".utf8) + start[space..<lineEnd]
        let parser = UnsafeMutablePointer<http_parser>.allocate(capacity: 1)
        defer { parser.deallocate() }
        parser.initialize(to: http_parser())
        http_parser_init(parser, HTTP_REQUEST)
        var settings = http_parser_settings()
        http_parser_settings_init(&settings)
        _ = probe.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { http_parser_execute(parser, &settings, $0.baseAddress, $0.count) }
        }
        return http_errno(rawValue: parser.pointee.http_errno) == HPE_OK
    }

    /// RFC 9110 5.6.2's `tchar`.
    private static func isTokenCharacter(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || Array("!#$%&'*+-.^_`|~".utf8).contains(c)
    }

    private func finish(_ outcome: Outcome) -> Outcome {
        finished = true
        return outcome
    }

    private static func owner(_ p: UnsafeMutablePointer<http_parser>?) -> HTTPRequestParser {
        Unmanaged<HTTPRequestParser>.fromOpaque(p!.pointee.data).takeUnretainedValue()
    }

    private enum HeadPart { case url, field, value }

    private func appendHead(_ part: HeadPart, _ at: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard let at else { return 0 }
        let piece = UnsafeRawBufferPointer(start: at, count: length)
        switch part {
        case .url: url.append(contentsOf: piece)
        case .field: field.append(contentsOf: piece)
        case .value: value.append(contentsOf: piece)
        }
        headPartBytes += length
        guard headPartBytes <= maxHeadBytes else {
            failure = (431, "request head longer than \(maxHeadBytes) bytes")
            return 1
        }
        return 0
    }

    /// Files the header just read; false (with `failure` set) when its name breaks RFC 9112 5.1.
    private func finishHeader() -> Bool {
        if field.contains(UInt8(ascii: " ")) || field.contains(UInt8(ascii: "\t")) {
            failure = (400, "no whitespace is allowed between a header name and its colon (RFC 9112 5.1)")
            return false
        }
        head.headers.append((String(decoding: field, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        field.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        return true
    }

    /// The status and reason for a complete head that RFC 9112 rejects, or nil.
    private func headRuleBroken(major: Int, minor: Int) -> (status: Int, reason: String)? {
        guard major == 1 else { return (505, "HTTP/\(major).\(minor) is not supported: this server speaks HTTP/1.1") }
        let hosts = head.headers(named: "Host")
        if hosts > 1 { return (400, "more than one Host header (RFC 9112 3.2)") }
        if minor >= 1, hosts == 0 { return (400, "an HTTP/1.1 request needs a Host header (RFC 9112 3.2)") }
        return nil
    }
}
