/// The row above the status line: the `:` line while it is open, else the answer to the last command
/// (an error in reverse video until the next command), else the key hints.
enum MessageBar {
    static func draw(interaction: Interaction, feedback: Feedback, nowMs: UInt64, row: Int, into frame: inout ScreenFrame) {
        guard row >= 0 else { return }
        if interaction.commandLineOpen {
            let text = ":" + interaction.commandLine.text
            // Keep the end of a long line (where the typing is) in view.
            let shown = text.count >= frame.columns ? String(text.suffix(frame.columns - 1)) : text
            let end = frame.put(shown, column: 0, row: row, style: CellStyle(bold: true))
            frame[end, row] = Cell(scalar: "_", style: CellStyle(bold: true, reverse: true))
            return
        }
        if let result = feedback.result {
            let style = result.isError ? CellStyle(bold: true, reverse: true) : CellStyle(bold: true)
            let text = (result.isError ? " ! " : " ") + result.text + " "
            frame.put(String(text.prefix(frame.columns)), column: 0, row: row, style: style)
            return
        }
        frame.put(String(HelpText.hint.prefix(frame.columns)), column: 0, row: row)
    }
}
