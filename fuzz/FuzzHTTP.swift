// libFuzzer entry for the HTTP request path: http-parser with this server's RFC 9112 rules on top
// (Sources/NetProtocol/HTTP/HTTPRequestParser.swift) and the WebSocket handshake checks on what it parses.
//
// Compiled in one module with those sources (no `import NetProtocol`) by scripts/fuzz.sh, against the
// system's libhttp_parser and nettle.
//
// Invariants checked on every input (a violation is a `fatalError`, which libFuzzer saves as a reproducer):
//  1. The outcome does not depend on how the bytes arrive: fed whole or in random pieces (split points drawn
//     from the first byte), the parser gives the same request head (method, target, version, headers) or the
//     same failure status — the request's bytes, not the network's segmentation, decide. One exception: a
//     request both over the head limit and malformed may get 431 or 400, whichever is noticed first.
//  2. A request's `consumed` never exceeds the bytes of the last feed; a failure is one of the statuses
//     the server documents (400, 413, 431, 501, 505).
//  3. The path, the handshake checks and the subprotocol choice run on any head without trapping.
import CHTTPParser

private struct SplitRandom {
    var state: UInt64
    init(seed: UInt8) { state = 0x9E37_79B9_7F4A_7C15 ^ UInt64(seed) &* 0x1000_0000_01B3 | 1 }
    mutating func next(below bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(max(1, bound)))
    }
}

/// What one parse ended with, comparable across splits.
private enum Verdict: Equatable {
    case needMore
    case request(method: String, target: String, version: [Int], headers: [String], upgrade: Bool)
    case failed(Int)
}

private func parse(_ bytes: UnsafeRawBufferPointer, pieces: [Range<Int>]) -> Verdict {
    let parser = HTTPRequestParser(maxHeadBytes: 1024, maxBodyBytes: 256)
    for piece in pieces {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[piece])
        switch parser.feed(slice) {
        case .needMore:
            continue
        case .failed(let status, _):
            guard [400, 413, 431, 501, 505].contains(status) else { fatalError("undocumented status \(status)") }
            return .failed(status)
        case .request(let head, let consumed):
            guard consumed >= 0, consumed <= slice.count else { fatalError("consumed \(consumed) of \(slice.count)") }
            _ = head.path
            _ = WebSocketHandshake.problem(with: head)
            _ = WebSocketHandshake.selectedSubprotocol(head)
            return .request(method: head.method, target: head.target, version: [head.versionMajor, head.versionMinor],
                            headers: head.headers.map { $0.name + "\u{0}" + $0.value }, upgrade: head.upgrade)
        }
    }
    return .needMore
}

private func randomPieces(count: Int, seed: UInt8) -> [Range<Int>] {
    var random = SplitRandom(seed: seed)
    var pieces: [Range<Int>] = []
    var start = 0
    while start < count {
        let length = random.next(below: 4) == 0 ? 1 + random.next(below: 512) : 1 + random.next(below: 16)
        pieces.append(start..<min(count, start + length))
        start = min(count, start + length)
    }
    return pieces
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let whole = parse(bytes, pieces: [0..<size])
    let split = parse(bytes, pieces: randomPieces(count: size, seed: data[0]))
    if case .failed(let a) = whole, case .failed(let b) = split, Set([a, b]) == [400, 431], size > 1024 { return 0 }
    if whole != split { fatalError("the outcome depends on the split points:\n whole: \(whole)\n split: \(split)") }
    return 0
}
