import Testing
@testable import dynclient

@Suite struct ScreenDiffTests {
    let red = RGB(255, 0, 0)

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(.timeLimit(.minutes(3))) func identicalFramesWriteNothing() {
        var frame = ScreenFrame(columns: 4, rows: 2)
        frame.put("ab", column: 0, row: 0)
        #expect(ScreenDiff.render(previous: frame, next: frame, colorMode: .trueColor).isEmpty)
    }

    @Test(.timeLimit(.minutes(3))) func oneChangedCellIsOneMoveOneStyleOneCharacter() {
        let before = ScreenFrame(columns: 4, rows: 2)
        var after = before
        after[2, 1] = Cell(scalar: "X", style: CellStyle(foreground: red))
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .trueColor))
            == "\u{1B}[?2026h\u{1B}[2;3H\u{1B}[0;38;2;255;0;0mX\u{1B}[0m\u{1B}[?2026l")
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .palette256))
            == "\u{1B}[?2026h\u{1B}[2;3H\u{1B}[0;38;5;196mX\u{1B}[0m\u{1B}[?2026l")
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .none))
            == "\u{1B}[?2026h\u{1B}[2;3HX\u{1B}[?2026l")
    }

    @Test(.timeLimit(.minutes(3))) func adjacentChangesShareOneCursorMove() {
        let before = ScreenFrame(columns: 6, rows: 1)
        var after = before
        after.put("abc", column: 1, row: 0)
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .none))
            == "\u{1B}[?2026h\u{1B}[1;2Habc\u{1B}[?2026l")
    }

    @Test(.timeLimit(.minutes(3))) func shortGapsAreRewrittenLongGapsAreJumped() {
        let before = ScreenFrame(columns: 20, rows: 1)
        var after = before
        after.put("a", column: 0, row: 0)
        after.put("b", column: 3, row: 0)
        after.put("c", column: 15, row: 0)
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .none))
            == "\u{1B}[?2026h\u{1B}[1;1Ha  b\u{1B}[1;16Hc\u{1B}[?2026l")
    }

    @Test(.timeLimit(.minutes(3))) func styleIsSentOnlyWhenItChanges() {
        let before = ScreenFrame(columns: 4, rows: 1)
        var after = before
        after.put("ab", column: 0, row: 0, style: CellStyle(reverse: true))
        after.put("c", column: 2, row: 0)
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .trueColor))
            == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[0;7mab\u{1B}[0mc\u{1B}[?2026l")
    }

    @Test(.timeLimit(.minutes(3))) func firstFrameClearsAndDrawsOnlyNonBlankCells() {
        var frame = ScreenFrame(columns: 3, rows: 2)
        frame.put("z", column: 1, row: 1)
        #expect(text(ScreenDiff.render(previous: nil, next: frame, colorMode: .none))
            == "\u{1B}[?2026h\u{1B}[0m\u{1B}[2J\u{1B}[2;2Hz\u{1B}[?2026l")
        let resized = ScreenFrame(columns: 4, rows: 2)
        #expect(text(ScreenDiff.render(previous: frame, next: resized, colorMode: .none))
            == "\u{1B}[?2026h\u{1B}[0m\u{1B}[2J\u{1B}[?2026l")
    }

    @Test(.timeLimit(.minutes(3))) func afterTheLastColumnTheCursorIsMovedAgain() {
        let before = ScreenFrame(columns: 2, rows: 2)
        var after = before
        after.put("ab", column: 1, row: 0)
        after.put("c", column: 0, row: 1)
        #expect(text(ScreenDiff.render(previous: before, next: after, colorMode: .none))
            == "\u{1B}[?2026h\u{1B}[1;2Ha\u{1B}[2;1Hc\u{1B}[?2026l")
    }

    @Test(.timeLimit(.minutes(3))) func serverTextCannotInjectEscapes() {
        var frame = ScreenFrame(columns: 8, rows: 1)
        frame.put("a\u{1B}[2Jé", column: 0, row: 0)
        #expect(frame.text(row: 0) == "a?[2J?  ")
    }
}
