import Testing
@testable import dynclient

@Suite struct InputDecoderTests {
    private func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test(.timeLimit(.minutes(3))) func arrowsInBothCursorModes() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(decode("\u{1B}OA\u{1B}OD") == [.key(.up), .key(.left)])
        #expect(decode("\u{1B}[1;5C") == [.key(.right)])
    }

    @Test(.timeLimit(.minutes(3))) func tabShiftTabEnterCtrlCAndPrintables() {
        #expect(decode("\t\u{1B}[Z\r\u{03}q?") ==
            [.key(.tab), .key(.backTab), .key(.enter), .key(.control(3)), .key(.character("q")), .key(.character("?"))])
    }

    @Test(.timeLimit(.minutes(3))) func sgrMousePressReleaseAndMotionAreZeroBased() {
        #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(kind: .press, button: .left, column: 9, row: 4))])
        #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(kind: .release, button: .left, column: 9, row: 4))])
        #expect(decode("\u{1B}[<32;12;6M") == [.mouse(MouseEvent(kind: .motion, button: .left, column: 11, row: 5))])
        #expect(decode("\u{1B}[<2;200;100M") == [.mouse(MouseEvent(kind: .press, button: .right, column: 199, row: 99))])
        #expect(decode("\u{1B}[<64;1;1M\u{1B}[<65;1;1M") ==
            [.mouse(MouseEvent(kind: .press, button: .wheelUp, column: 0, row: 0)),
             .mouse(MouseEvent(kind: .press, button: .wheelDown, column: 0, row: 0))])
    }

    @Test(.timeLimit(.minutes(3))) func everySplitOfAStreamDecodesLikeTheWhole() {
        let stream = Array("a\u{1B}[<0;10;5M\u{1B}[A\té\u{1B}[Z\u{1B}[<32;11;5M\u{1B}[<0;11;5m\r".utf8)
        var whole = InputDecoder()
        let expected = whole.feed(stream)
        #expect(expected.count == 9)
        for split in 1..<stream.count {
            var decoder = InputDecoder()
            let events = decoder.feed(stream[..<split]) + decoder.feed(stream[split...])
            #expect(events == expected, "split at \(split)")
        }
        var bytewise = InputDecoder()
        #expect(stream.flatMap { bytewise.feed([$0]) } == expected)
    }

    @Test(.timeLimit(.minutes(3))) func loneEscapeWaitsForTheFlush() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.flushPending() == [.key(.escape)])
        #expect(!decoder.hasPending)
        #expect(decoder.feed(Array("\u{1B}\u{1B}[A".utf8)) == [.key(.escape), .key(.up)])
    }

    @Test(.timeLimit(.minutes(3))) func malformedSequencesDoNotSwallowLaterKeys() {
        #expect(decode("\u{1B}[<0;;5Mq") == [.key(.unknown), .key(.character("q"))])
        #expect(decode("\u{1B}[<0;1;99999999Mq") == [.key(.unknown), .key(.character("q"))])
        #expect(decode("\u{1B}[15~j") == [.key(.unknown), .key(.character("j"))])
        var raw = InputDecoder()
        #expect(raw.feed([0xFF, 0x6B]) == [.key(.unknown), .key(.character("k"))])
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[<0;1".utf8)).isEmpty)
        #expect(decoder.flushPending() == [.key(.unknown)])
        #expect(decoder.feed(Array("q".utf8)) == [.key(.character("q"))])
    }

    @Test(.timeLimit(.minutes(3))) func utf8CharacterSplitAcrossReads() {
        var decoder = InputDecoder()
        let bytes = Array("é".utf8)
        #expect(decoder.feed([bytes[0]]).isEmpty)
        #expect(decoder.feed([bytes[1]]) == [.key(.character("é"))])
    }
}
