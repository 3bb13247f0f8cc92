/// The exact bytes that put the terminal into the client's modes and take it out again.
///
/// Guarantees: `enter` switches to the alternate screen (`?1049h`), hides the cursor (`?25l`), turns on
/// button-event mouse tracking (`?1002h`) and SGR mouse encoding (`?1006h`), in that order; `leave` undoes
/// each of them in the reverse order after resetting attributes, ending on the main screen (`?1049l`), so a
/// terminal that saw `enter` then `leave` is back as it was.
enum TerminalModes {
    private static let escape = "\u{1B}["

    /// Mode switches in the order they are entered.
    static let switches: [(on: String, off: String)] = [
        ("?1049h", "?1049l"),  // alternate screen (saves and restores the main screen)
        ("?25l", "?25h"),      // cursor hidden
        ("?1002h", "?1002l"),  // mouse: press, release and motion while a button is held
        ("?1006h", "?1006l"),  // mouse: SGR encoding (any size, release tells the button)
    ]

    static let enter: [UInt8] = Array(switches.map { escape + $0.on }.joined().utf8)

    static let leave: [UInt8] = Array((escape + "0m" + switches.reversed().map { escape + $0.off }.joined()).utf8)

    /// Moves to the top-left and clears, used after re-entering (SIGCONT) so the next frame is drawn in full.
    static let clear: [UInt8] = Array((escape + "H" + escape + "2J").utf8)
}
