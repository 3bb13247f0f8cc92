import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dynclient --headless` for scripters: `--follow`, `--snapshots`, `--contacts`, `--version`, and the
    /// short syntax's `id=NAME` (docs/PROTOCOL.md, "Short syntax").
    @Suite(.serialized) struct ClientHeadlessFollowTests {
        private func decoded(_ run: HeadlessRun) -> [ServerMessage] { run.stdoutLines.compactMap { ServerMessage.decode($0) } }

        @Test(.timeLimit(.minutes(5))) func followKeepsPrintingAfterStdinEndsUntilTheServerCloses() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let serverPID = server.pid
            // stdin is empty: without --follow the client would be gone after its 100 ms linger. The server is
            // stopped once an observer saw the client counted for 60 ticks (a second) of world time, which no
            // machine runs faster than real time; its bye can only be printed by a client still following.
            try server.whenClientsReach(2, thenTicks: 60) { kill(serverPID, SIGTERM) }
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--follow", "--linger", "100"], stdin: "")
            #expect(run.exitCode == 0)
            let messages = decoded(run)
            #expect(messages.contains(.bye(reason: "shutdown")))
            // Its join snapshot and the snapshots of that second (a quiet world's keep-alive at least).
            let snapshots = messages.filter { if case .snapshot = $0 { true } else { false } }
            #expect(snapshots.count >= 2, "\(run.stdoutLines)")
        }

        @Test(.timeLimit(.minutes(5))) func snapshotsAndContactsFlagsSendSubscribe() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--linger", "300",
                                           "--snapshots", "none", "--contacts"], stdin: "")
            #expect(run.exitCode == 0)
            let ack = decoded(run).first { if case .ack(id: .string("subscribe"), _) = $0 { true } else { false } }
            guard case let .ack(_, fields)? = ack else {
                Issue.record("no subscribe ack in \(run.stdoutLines)")
                return
            }
            #expect(fields.first { $0.0 == "snapshots" }?.1 == .string("none"))
            #expect(fields.first { $0.0 == "contacts" }?.1 == .bool(true))
        }

        @Test(.timeLimit(.minutes(5))) func trailingIDNamesTheAnswer() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--linger", "300"],
                                          stdin: "spawn rect 40 40 100 100 id=box\nremove 999999 id=gone\n")
            let messages = decoded(run)
            #expect(messages.contains { if case .ack(id: .string("box"), _) = $0 { true } else { false } })
            #expect(messages.contains { if case let .error(error) = $0 { error.id == .string("gone") && error.code == .unknownBody } else { false } })
        }

        @Test(.timeLimit(.minutes(5)), arguments: ["dynclient", "dynserver", "dynbench"])
        func versionPrintsNameAndVersion(program: String) throws {
            let path = ServerProcess.productsDirectory.appendingPathComponent(program).path
            let run = try ChildProcess.run(path, ["--version"], timeout: 30)
            #expect(run.status == 0)
            #expect(run.stdoutText == "\(program) \(DynVersion.current)\n")
        }
    }
}
