import Foundation

/// One HTTP response as read off the wire.
struct HTTPReply {
    let status: Int
    let headers: [String: String]
    let body: String

    /// Parses a whole response (the connection closed after it).
    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        self.status = status
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        body = String(text[split.upperBound...])
    }

    /// Sends `request` as is to `127.0.0.1:port` and reads the answer until the server closes (or, for a
    /// server that keeps the connection open, until the body announced by Content-Length is in).
    static func exchange(port: UInt16, _ request: String, timeout: Double = 10) throws -> HTTPReply? {
        let socket = try BlockingSocket(port: port)
        try socket.send(request)
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while !socket.isClosedByPeer, Date() < deadline {
            bytes += socket.receive(timeout: max(0, deadline.timeIntervalSinceNow))
            if let reply = HTTPReply(bytes), let length = reply.headers["content-length"].flatMap({ Int($0) }),
               reply.body.utf8.count >= length {
                return reply
            }
        }
        return HTTPReply(bytes)
    }

    /// `GET path` over HTTP/1.1.
    static func get(port: UInt16, _ path: String) throws -> HTTPReply? {
        try exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    }
}
