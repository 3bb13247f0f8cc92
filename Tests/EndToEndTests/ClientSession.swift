import Foundation
import NetProtocol
import Testing

/// A real `dynserver`, a control connection watching it, and `dynclient` on a pseudo-terminal of 100 x 34
/// (world area 100 x 30 cells: one cell is 10 pt across and 20 pt down, the world starting at column 10).
struct ClientSession {
    let server: ServerProcess
    let control: LineClient
    let client: PseudoTerminalClient
    var scene: SceneInfo?

    static let columns = 100
    static let rows = 34

    /// `serverArguments` start the server; `setup` runs on the control connection before the client starts.
    init(serverArguments: [String] = ["--scene", "empty"], clientArguments: [String] = [], environment: [String: String] = [:],
         columns: Int = ClientSession.columns, rows: Int = ClientSession.rows, awaitConnected: Bool = true,
         setup: (LineClient) throws -> Void = { _ in }) throws {
        server = try ServerProcess(serverArguments)
        control = try server.connect()
        let joined = control.join()
        scene = joined.scene
        try setup(control)
        client = try PseudoTerminalClient(arguments: ["--port", String(server.port), "--name", "pty"] + clientArguments,
                                          columns: columns, rows: rows, environment: environment)
        if awaitConnected {
            let connected = client.waitForScreen { $0.text(row: rows - 1).hasPrefix(" connected | scene ") }
            #expect(connected, "no connected status line in:\n\(client.screen.text)")
        }
    }

    /// The SGR mouse report of a button-1 press, motion or release at cell (column, row) (0-based).
    static func mouse(_ kind: String, column: Int, row: Int) -> String {
        switch kind {
        case "press": return "\u{1B}[<0;\(column + 1);\(row + 1)M"
        case "motion": return "\u{1B}[<32;\(column + 1);\(row + 1)M"
        default: return "\u{1B}[<0;\(column + 1);\(row + 1)m"
        }
    }

    /// The cell a world point falls in, on the 100 x 34 terminal.
    static func cell(x: Double, y: Double) -> (column: Int, row: Int) { (10 + Int(x / 10), Int(y / 20)) }

    /// Spawns a 100 x 100 box at (400, 300) in a world without gravity; returns its id.
    static func box(_ control: LineClient) throws -> Int {
        #expect(try control.ack(.gravity(.magnitude(0)), id: 901) != nil)
        let spawned = try #require(try control.ack(.spawn(shape: .rect, width: 100, height: 100, x: 400, y: 300,
                                                          angle: nil, vx: nil, vy: nil, patch: PropertyPatch()), id: 902))
        return try #require(spawned.first { $0.0 == "body" }?.1.number.map { Int($0) })
    }

    func quit() {
        client.type("q")
        #expect(client.waitForExit() == 0)
    }
}
