/// The version every dyn program reports (`--version` prints `NAME VERSION`; the server's `welcome` says
/// `dynserver VERSION`).
public enum DynVersion {
    public static let current = "0.1.0"

    /// `NAME VERSION`, as `--version` prints it (docs/PROTOCOL.md, the programs).
    public static func line(_ program: String) -> String { "\(program) \(current)" }
}
