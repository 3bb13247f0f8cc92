import Testing
@testable import NetProtocol

/// Collects a framer's events as strings ("<tooLong>" for oversize lines).
private func frame(_ chunks: [[UInt8]], maxLineBytes: Int = 65536) -> (events: [String], framer: LineFramer) {
    var framer = LineFramer(maxLineBytes: maxLineBytes)
    var events: [String] = []
    for chunk in chunks {
        framer.feed(chunk) { event in
            switch event {
            case let .line(bytes): events.append(String(decoding: bytes, as: UTF8.self))
            case .tooLong: events.append("<tooLong>")
            }
        }
    }
    return (events, framer)
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Test(.timeLimit(.minutes(3))) func framerJoinsALineSplitAcrossFeeds() {
    let result = frame([bytes("{\"type\":"), bytes("\"ping\"}"), bytes("\n")])
    #expect(result.events == ["{\"type\":\"ping\"}"])
    #expect(result.framer.bufferedByteCount == 0)
}

@Test(.timeLimit(.minutes(3))) func framerFramesOneByteAtATime() {
    let text = "{\"type\":\"tap\",\"x\":1,\"y\":2}\r\n{\"type\":\"ping\"}\n"
    let result = frame(bytes(text).map { [$0] })
    #expect(result.events == ["{\"type\":\"tap\",\"x\":1,\"y\":2}", "{\"type\":\"ping\"}"])
}

@Test(.timeLimit(.minutes(3))) func framerEmitsManyLinesFromOneFeed() {
    let text = (0..<100).map { "line\($0)\n" }.joined()
    let result = frame([bytes(text)])
    #expect(result.events.count == 100)
    #expect(result.events.first == "line0")
    #expect(result.events.last == "line99")
}

@Test(.timeLimit(.minutes(3))) func framerStripsCarriageReturnBeforeNewline() {
    let result = frame([bytes("a\r\nb\r"), bytes("\nc\rd\n")])
    #expect(result.events == ["a", "b", "c\rd"])
}

@Test(.timeLimit(.minutes(3))) func framerNeverEmitsEmptyLines() {
    let result = frame([bytes("\n\n\r\nx\n\n"), bytes("\r\n")])
    #expect(result.events == ["x"])
}

@Test(.timeLimit(.minutes(3))) func framerKeepsAnUnterminatedLinePending() {
    let result = frame([bytes("a\nbcd")])
    #expect(result.events == ["a"])
    #expect(result.framer.bufferedByteCount == 3)
}

@Test(.timeLimit(.minutes(3))) func framerDiscardsAnOversizeLineAndFramesTheNextOne() {
    let long = String(repeating: "x", count: 20)
    let result = frame([bytes(long + "\n{\"ok\":1}\n")], maxLineBytes: 10)
    #expect(result.events == ["<tooLong>", "{\"ok\":1}"])
}

@Test(.timeLimit(.minutes(3))) func framerReportsAnOversizeLineOnceEvenAcrossFeeds() {
    var chunks = [bytes("12345678")]
    chunks += Array(repeating: bytes("abcdefgh"), count: 10)
    chunks.append(bytes("zz\nnext\n"))
    let result = frame(chunks, maxLineBytes: 10)
    #expect(result.events == ["<tooLong>", "next"])
}

@Test(.timeLimit(.minutes(3))) func framerAcceptsALineOfExactlyTheLimit() {
    let result = frame([bytes("0123456789\n01234567890\n")], maxLineBytes: 10)
    #expect(result.events == ["0123456789", "<tooLong>"])
}

@Test(.timeLimit(.minutes(3))) func framerNeverBuffersMoreThanTheLimit() {
    var framer = LineFramer(maxLineBytes: 100)
    var maxBuffered = 0
    var tooLongCount = 0
    for _ in 0..<1000 {
        framer.feed(bytes("0123456")) { if case .tooLong = $0 { tooLongCount += 1 } }
        maxBuffered = max(maxBuffered, framer.bufferedByteCount)
    }
    #expect(maxBuffered <= 100)
    #expect(maxBuffered >= 98)
    #expect(tooLongCount == 1)
}

@Test(.timeLimit(.minutes(3))) func framerSurvivesATenMegabyteLineWithoutNewline() {
    var framer = LineFramer()
    let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 64 * 1024)
    var events: [String] = []
    for _ in 0..<160 {
        framer.feed(chunk) { event in
            if case .tooLong = event { events.append("<tooLong>") } else { events.append("line") }
        }
        #expect(framer.bufferedByteCount <= 65536)
    }
    #expect(framer.bufferedByteCount == 0)
    framer.feed(bytes("]]\n{\"type\":\"ping\"}\n")) { event in
        if case let .line(line) = event { events.append(String(decoding: line, as: UTF8.self)) }
    }
    #expect(events == ["<tooLong>", "{\"type\":\"ping\"}"])
}
