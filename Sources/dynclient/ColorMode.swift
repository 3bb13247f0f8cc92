/// How colours are written to the terminal.
///
/// Guarantees: `detect` follows the conventions exactly: `NO_COLOR` set to anything (even empty) or
/// `TERM=dumb` means no colour at all; otherwise `COLORTERM` of `truecolor` or `24bit` means 24-bit SGR
/// (`38;2;r;g;b`), anything else the xterm 256-colour palette (`38;5;n`).
enum ColorMode: Equatable, Sendable {
    case trueColor
    case palette256
    case none

    static func detect(environment: [String: String]) -> ColorMode {
        if environment["NO_COLOR"] != nil || environment["TERM"] == "dumb" { return .none }
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": return .trueColor
        default: return .palette256
        }
    }

    /// The SGR parameters selecting `color` as foreground (`38`) or background (`48`); empty for `.none`.
    func sgrParameters(_ color: RGB, background: Bool) -> String {
        let base = background ? "48" : "38"
        switch self {
        case .trueColor: return "\(base);2;\(color.r);\(color.g);\(color.b)"
        case .palette256: return "\(base);5;\(Self.paletteIndex(color))"
        case .none: return ""
        }
    }

    /// The nearest xterm palette entry: the 6x6x6 cube (16...231) or the grey ramp (232...255),
    /// whichever is closer in RGB distance.
    static func paletteIndex(_ color: RGB) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            var best = 0
            for index in levels.indices where abs(levels[index] - Int(value)) < abs(levels[best] - Int(value)) {
                best = index
            }
            return best
        }
        let (r, g, b) = (nearestLevel(color.r), nearestLevel(color.g), nearestLevel(color.b))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeDistance = distance(color, (levels[r], levels[g], levels[b]))
        let average = (Int(color.r) + Int(color.g) + Int(color.b)) / 3
        let greyStep = min(23, max(0, (average - 8 + 5) / 10))
        let grey = 8 + 10 * greyStep
        let greyDistance = distance(color, (grey, grey, grey))
        return greyDistance < cubeDistance ? 232 + greyStep : cube
    }

    private static func distance(_ color: RGB, _ other: (Int, Int, Int)) -> Int {
        let dr = Int(color.r) - other.0
        let dg = Int(color.g) - other.1
        let db = Int(color.b) - other.2
        return dr * dr + dg * dg + db * db
    }
}
