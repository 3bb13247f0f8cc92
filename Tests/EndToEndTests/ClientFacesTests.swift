import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// What the terminal client shows a new user, on a real PTY against a real server: notices and the scene's
    /// caption in rows of their own (never over the world), gravity and the collision mode at their start,
    /// one wording for a world at rest (whose tick stands still as the words say), the page's URL in `?` (with
    /// the HTTP port the `welcome` says), and a server's goodbye cleared once it is back.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ClientFacesTests {
        /// The world's rows (everything above the info rows) of the 100 x 34 terminal.
        static let worldRows = 0..<30

        private func worldText(_ screen: ClientScreen) -> [String] { Self.worldRows.map(screen.text(row:)) }

        @Test func aNoticeNeverChangesTheWorldsRows() throws {
            // Held: nothing moves, so the world's rows can only change if something is drawn over them.
            let session = try ClientSession(serverArguments: ["--scene", "default", "--held"])
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).contains("| held |") })
            session.client.drain(forMs: 300)
            let before = worldText(session.client.screen)
            #expect(before.joined().unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "the world is drawn")
            #expect(try session.control.ack(.hello(name: "bob", token: nil, protocolVersion: 1), id: 1) != nil)
            // A structural command that draws nothing new while held: a notice for everyone else.
            #expect(try session.control.ack(.collision(mode: .items), id: 2) != nil)
            let shown = session.client.waitForScreen { screen in screen.text(row: 31).hasPrefix("> bob collision mode items") }
            #expect(shown, "the notice is in an info row:\n\(session.client.screen.text)")
            #expect(worldText(session.client.screen) == before, "the world's rows changed with the notice:\n\(session.client.screen.text)")
            session.quit()
        }

        /// A notice is about the room it came from: `:join` another room clears it from the screen in the frame
        /// that first shows the new room (a notice otherwise stays 5 s; the join takes a round trip).
        @Test func joiningAnotherRoomClearsTheNoticesOfTheRoomLeft() throws {
            let session = try ClientSession(serverArguments: ["--scene", "default"])
            #expect(try session.control.ack(.hello(name: "bob", token: nil, protocolVersion: 1), id: 1) != nil)
            #expect(try session.control.ack(.collision(mode: .items), id: 2) != nil)
            #expect(session.client.waitForScreen { $0.contains("> bob collision mode items") },
                    "the notice shows:\n\(session.client.screen.text)")
            session.client.type(":join lab\r")
            let bottom = ClientSession.rows - 1
            #expect(session.client.waitForScreen { $0.text(row: bottom).contains("| room lab |") },
                    "joined lab:\n\(session.client.screen.text)")
            #expect(!session.client.screen.contains("bob collision mode"),
                    "the notice of the room left is gone:\n\(session.client.screen.text)")
            session.quit()
        }

        /// Whether every field of a status line is whole: one of the status line's own field forms
        /// (dynclient's `StatusLine`), never a word cut in half or a `~`.
        static func wholeFields(_ row: String) -> [String]? {
            let forms = [#"connected"#, #"scene [a-z]+"#, #"running|held"#, #"tick \d+"#, #"at rest since tick \d+"#,
                         #"\d+ clients?"#, #"no selection"#, #"sel #\d+ (rect|ellipse|circle|polygon) [\d.]+x[\d.]+( [efdq]-?[\d.]+| anchored)*"#,
                         #"ping ([\d.]+|-) ms"#, #"buf \d+ ms"#, #"\d+ snap/s"#, #"\d+ items?"#]
            let fields = row.trimmingCharacters(in: .whitespaces).components(separatedBy: " | ")
            let whole = fields.allSatisfy { field in forms.contains { field.wholeMatch(of: try! Regex($0)) != nil } }
            return whole ? fields : nil
        }

        /// The status line at 120 and 80 columns on a real PTY, with a selection: whole fields only, the
        /// least important dropped first; the scene and the world's state always show.
        @Test func theStatusLineKeepsWholeFieldsAt120And80Columns() throws {
            for columns in [120, 80] {
                let session = try ClientSession(serverArguments: ["--scene", "default"], columns: columns)
                let bottom = ClientSession.rows - 1
                session.client.type("\t")
                #expect(session.client.waitForScreen { $0.text(row: bottom).contains("| sel #") || columns < 100 },
                        "selected at \(columns):\n\(session.client.screen.text)")
                session.client.drain(forMs: 300)
                let row = session.client.screen.text(row: bottom)
                let fields = Self.wholeFields(row)
                #expect(fields != nil, "a field cut at \(columns) columns: '\(row)'")
                #expect(row.count <= columns)
                if let fields {
                    #expect(Array(fields.prefix(2)) == ["connected", "scene default"], "\(fields)")
                    #expect(fields.contains { ["running", "held"].contains($0) || $0.hasPrefix("at rest since tick") }, "\(fields)")
                    if columns == 120 { #expect(fields.contains { $0.hasPrefix("sel #") }, "\(fields)") }
                    print("status line at \(columns) columns: \(fields.joined(separator: " | "))")
                }
                session.quit()
            }
        }

        @Test func gravityAndTheCollisionModeAreShownAndGEchoesTheNewGravity() throws {
            // The first info row, under the world, starts with them (the status line has no room at 80 columns).
            let session = try ClientSession(serverArguments: ["--scene", "default"], columns: 80)
            let settings = { (screen: ClientScreen) in screen.text(row: 30) }
            #expect(session.client.waitForScreen { settings($0).hasPrefix("gravity 1 down | collide everything | ") },
                    "\(session.client.screen.text)")
            #expect(try session.control.ack(.collision(mode: .boundaries), id: 1) != nil)
            #expect(try session.control.ack(.gravity(.magnitude(0)), id: 2) != nil)
            #expect(session.client.waitForScreen { settings($0).hasPrefix("gravity off | collide boundaries | ") },
                    "\(session.client.screen.text)")
            // g turns gravity a quarter turn (from straight down, magnitude restored to 1): the answer says
            // where it points now, and so does the info row.
            #expect(try session.control.ack(.gravity(.vector(dx: 0, dy: 1, magnitude: 1)), id: 3) != nil)
            #expect(session.client.waitForScreen { settings($0).hasPrefix("gravity 1 down |") })
            session.client.type("g")
            let echoed = session.client.waitForScreen { $0.text(row: ClientSession.rows - 2).contains("gravity 1 left: ok") }
            #expect(echoed, "\(session.client.screen.text)")
            #expect(settings(session.client.screen).hasPrefix("gravity 1 left | collide boundaries"))
            let scene = try #require(session.control.nextScene())
            #expect(scene.gravity.dx < -0.99 && abs(scene.gravity.dy) < 1e-9, "the server's gravity: \(scene.gravity)")
            session.quit()
        }

        @Test func aWorldAtRestSaysSoAndItsTickStandsStill() throws {
            // An empty world is at rest from the start; keep-alive snapshots still count the server's tick.
            let session = try ClientSession(serverArguments: ["--scene", "empty"])
            let status = { session.client.screen.text(row: ClientSession.rows - 1) }
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).contains("| at rest since tick ") }, "\(status())")
            let restTick = try #require(status().components(separatedBy: "at rest since tick ").last?.split(separator: " ").first.flatMap { UInt64($0) })
            // Two keep-alives later (one a second) the server's tick is well past it; the line still says the same.
            let later = try #require(session.control.nextSnapshot(timeout: 5) { $0.paused && $0.tick >= restTick + 90 })
            session.client.drain(forMs: 200)
            #expect(status().contains("| at rest since tick \(restTick) |"), "tick \(later.tick): \(status())")
            #expect(!status().contains("paused"))
            // /metrics says the same words for the same state.
            let http = try #require(session.server.httpPort)
            let metrics = try MetricsScrape.fetch(port: http)
            #expect(metrics.value("dyn_world_paused") == 1)
            #expect(metrics.text.contains("# HELP dyn_world_paused Loaded rooms at rest or held now"),
                    "\(metrics.text.components(separatedBy: "\n").filter { $0.contains("dyn_world_paused") })")
            // p holds it: the other word.
            session.client.type("p")
            #expect(session.client.waitForScreen { $0.text(row: ClientSession.rows - 1).contains("| held | tick ") }, "\(status())")
            session.quit()
        }

        @Test func helpNamesThePagesURLAndTheScenesCaption() throws {
            let server = try FixedPortServer.start(["--scene", "snap"])
            let control = try server.connect()
            let caption = try #require(control.join().scene?.caption)
            let client = try PseudoTerminalClient(arguments: ["--port", String(server.port), "--name", "pty"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            #expect(client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene snap") }, "\(client.screen.text)")
            // The caption's first words are in the info rows under the world, not in the world.
            let firstWords = String(caption.prefix(30))
            #expect(client.waitForScreen { screen in screen.text(row: 30).hasPrefix("gravity off | collide everything | " + firstWords) },
                    "caption \(caption) not in:\n\(client.screen.text)")
            client.type("?")
            let url = "http://127.0.0.1:\(try #require(server.httpPort))/"
            #expect(client.waitForScreen { $0.contains("in a browser: \(url)") }, "\(client.screen.text)")
            // The page the help names is the page the server serves.
            #expect(try HTTPReply.get(port: try #require(server.httpPort), "/")?.status == 200)
            client.type("q")
            #expect(client.waitForExit() == 0)
        }

        @Test func helpNamesTheHTTPPortTheServerBoundNotTheTCPPortPlusOne() throws {
            // TCP on any port (`--port 0`), HTTP on a free port chosen here: never TCP + 1 (another pick if it is).
            var picked: (server: ServerProcess, http: UInt16)?
            for _ in 0..<5 where picked == nil {
                let http = try TCPSocket.freePort()
                let server = try ServerProcess(["--scene", "snap", "--http-port", String(http)])
                if server.port &+ 1 != http { picked = (server, http) }
            }
            let (server, http) = try #require(picked)
            #expect(server.httpPort == http, "the server listens for HTTP where it was told")
            let client = try PseudoTerminalClient(arguments: ["--port", String(server.port), "--name", "pty", "--room", "lab"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            #expect(client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | room lab | scene snap") },
                    "\(client.screen.text)")
            client.type("?")
            let url = "http://127.0.0.1:\(http)/r/lab"
            #expect(client.waitForScreen { $0.contains("in a browser: \(url)") }, "\(client.screen.text)")
            #expect(!client.screen.text.contains(":\(Int(server.port) + 1)/"), "not the TCP port + 1:\n\(client.screen.text)")
            // The page the help names is the page the server serves.
            #expect(try HTTPReply.get(port: http, "/r/lab")?.status == 200)
            client.type("q")
            #expect(client.waitForExit() == 0)
        }

        @Test func aServersGoodbyeIsClearedOnceItIsBack() throws {
            let first = try FixedPortServer.start(["--scene", "default"])
            let ports = (tcp: first.port, http: first.httpPort)
            let client = try PseudoTerminalClient(arguments: ["--port", String(first.port), "--name", "pty"],
                                                  columns: ClientSession.columns, rows: ClientSession.rows)
            let messageRow = ClientSession.rows - 2
            #expect(client.waitForScreen { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene default") })
            first.signal(SIGTERM)
            #expect(first.waitForExit(timeout: 5) == 0)
            #expect(client.waitForScreen { $0.text(row: messageRow).contains("server said bye (shutdown)") }, "\(client.screen.text)")
            let second = try FixedPortServer.restart(on: ports, ["--scene", "snap"])
            #expect(client.waitForScreen(timeout: 15) { $0.text(row: ClientSession.rows - 1).hasPrefix(" connected | scene snap") },
                    "\(client.screen.text)")
            #expect(!client.screen.text(row: messageRow).contains("bye"), "still: \(client.screen.text(row: messageRow))")
            client.type("q")
            #expect(client.waitForExit() == 0)
            withExtendedLifetime(second) {}
        }
    }
}
