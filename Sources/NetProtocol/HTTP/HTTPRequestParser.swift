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

    /// The target without its query string.
    public var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
}

/// One HTTP/1.x request read with Node's http-parser (libhttp-parser), incrementally, as bytes arrive.
///
/// Guarantees: never reads past the end of the first request (for an upgrade, `consumed` is where the new
/// protocol's bytes begin); a head (request line and headers) longer than `maxHeadBytes` fails with 431, a
/// body longer than `maxBodyBytes` with 413, anything http-parser rejects with 400; after the first outcome
/// other than `.needMore`, further input is ignored.
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
    private var headBytes = 0
    private var headPartBytes = 0
    private var bodyBytes = 0
    private var headersComplete = false
    private var messageComplete = false
    private var failure: (status: Int, reason: String)?
    private var finished = false

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
            if me.lastWasValue { me.finishHeader() }
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
            if me.lastWasValue || !me.field.isEmpty { me.finishHeader() }
            me.headersComplete = true
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
        if !headersComplete {
            headBytes += bytes.count
        }
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
            let status = errno == HPE_HEADER_OVERFLOW ? 431 : 400
            return finish(.failed(status: status, reason: "malformed request (\(String(cString: http_errno_name(errno))))"))
        }
        if !headersComplete, headBytes > maxHeadBytes {
            return finish(.failed(status: 431, reason: "request head longer than \(maxHeadBytes) bytes"))
        }
        return .needMore
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

    private func finishHeader() {
        head.headers.append((String(decoding: field, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        field.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
    }
}
