/// The preset scenes the number keys load, in the order `?` help lists them (docs/PROTOCOL.md, `scene`).
///
/// Guarantees: key `1` is the first name, `9` the ninth, `0` the tenth (later ones: `:scene NAME`, Tab
/// completes them); the list is the server's own (an end-to-end test loads every name against a real server).
enum SceneCatalog {
    static let names = ["default", "empty", "gravity", "collision", "push", "attachment", "snap", "elasticity",
                        "fields", "joints", "group"]

    /// The scene a digit key loads, if any.
    static func name(forDigit digit: Character) -> String? {
        guard let value = digit.wholeNumberValue, digit.isASCII else { return nil }
        let index = value == 0 ? 9 : value - 1
        return names.indices.contains(index) ? names[index] : nil
    }
}
