import Testing
@testable import dynclient

@Suite struct ColorModeTests {
    @Test(.timeLimit(.minutes(3))) func detectionFollowsColortermNoColorAndDumbTerminals() {
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color"]) == .trueColor)
        #expect(ColorMode.detect(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"]) == .palette256)
        #expect(ColorMode.detect(environment: ["COLORTERM": "yes"]) == .palette256)
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor", "NO_COLOR": ""]) == .none)
        #expect(ColorMode.detect(environment: ["NO_COLOR": "1"]) == .none)
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor", "TERM": "dumb"]) == .none)
    }

    @Test(.timeLimit(.minutes(3))) func paletteIndicesForCubeAndGreyColours() {
        #expect(ColorMode.paletteIndex(RGB(255, 0, 0)) == 196)
        #expect(ColorMode.paletteIndex(RGB(0, 0, 0)) == 16)
        #expect(ColorMode.paletteIndex(RGB(255, 255, 255)) == 231)
        #expect(ColorMode.paletteIndex(RGB(128, 128, 128)) == 244)
        #expect(ColorMode.paletteIndex(RGB(0x61, 0xAF, 0xEF)) == 16 + 36 * 1 + 6 * 3 + 5)
    }

    @Test(.timeLimit(.minutes(3))) func sgrParametersPerMode() {
        #expect(ColorMode.trueColor.sgrParameters(RGB(1, 2, 3), background: false) == "38;2;1;2;3")
        #expect(ColorMode.trueColor.sgrParameters(RGB(1, 2, 3), background: true) == "48;2;1;2;3")
        #expect(ColorMode.palette256.sgrParameters(RGB(255, 0, 0), background: false) == "38;5;196")
        #expect(ColorMode.none.sgrParameters(RGB(255, 0, 0), background: false) == "")
    }

    @Test(.timeLimit(.minutes(3))) func hexColoursParseInEitherCaseAndRejectTheRest() {
        #expect(RGB(hex: "#e06C75") == RGB(0xE0, 0x6C, 0x75))
        #expect(RGB(hex: "e06c75") == nil)
        #expect(RGB(hex: "#e06c7") == nil)
        #expect(RGB(hex: "#g06c75") == nil)
    }
}
