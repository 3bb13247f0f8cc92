import Testing
@testable import dynclient

@Suite struct TerminalModesTests {
    @Test(.timeLimit(.minutes(3))) func enterBytesAreAltScreenHiddenCursorButtonMouseSGRMouse() {
        #expect(TerminalModes.enter == Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h".utf8))
    }

    @Test(.timeLimit(.minutes(3))) func leaveBytesResetAttributesThenUndoInReverseOrder() {
        #expect(TerminalModes.leave == Array("\u{1B}[0m\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l".utf8))
    }

    @Test(.timeLimit(.minutes(3))) func everyModeEnteredIsLeft() {
        for (on, off) in TerminalModes.switches {
            #expect(on.dropLast() == off.dropLast())
            #expect(on.last != off.last)
        }
    }
}
