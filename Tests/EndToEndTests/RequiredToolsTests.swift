import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// The real programs `make test` drives (scripts/bootstrap.sh installs them): each one runs here, so a
    /// machine without one skips these (saying how to install it) and CI, where `CI=true`, fails on it.
    @Suite(.serialized)
    struct RequiredToolsTests {
        @Test(.timeLimit(.minutes(5)), RequiredTool.chromium.trait)
        func chromiumRuns() throws {
            let run = try ExternalTool.run(try RequiredTool.chromium.require(), ["--headless", "--no-sandbox", "--version"], timeout: 60)
            #expect(run.status == 0 && run.output.contains("Chromium"), "\(run.output)")
        }

        @Test(.timeLimit(.minutes(5)), RequiredTool.promtool.trait)
        func promtoolRuns() throws {
            let run = try ExternalTool.run(try RequiredTool.promtool.require(), ["--version"], timeout: 30)
            #expect(run.status == 0 && run.output.contains("promtool"), "\(run.output)")
        }

        @Test(.timeLimit(.minutes(5)), RequiredTool.redisServer.trait)
        func redisServerAnswersAndKeepsAValue() throws {
            let redis = try RedisServerProcess()
            #expect(try redis.command("PING") == "+PONG\r\n")
            #expect(try redis.command("SET dyn-test 42") == "+OK\r\n")
            #expect(try redis.command("GET dyn-test") == "$2\r\n42\r\n")
        }

        /// The mechanism that ties every child to the runner: a child started under `setpriv --pdeathsig KILL`
        /// by a shell that then exits is killed with it (a runner that crashes leaves no server behind).
        @Test(.timeLimit(.minutes(5)), RequiredTool.setpriv.trait)
        func aChildUnderSetprivDiesWithItsParent() throws {
            let setpriv = try RequiredTool.setpriv.require()
            // The shell waits until setpriv has exec'd `sleep` (so its prctl is done: exiting earlier would
            // race it and leave the signal tied to init), prints the pid and exits.
            let script = "'\(setpriv)' --pdeathsig KILL -- sleep 300 & "
                + #"while [ "$(cat /proc/$!/comm 2>/dev/null)" != sleep ]; do :; done; echo $!"#
            let run = try ExternalTool.run("/bin/sh", ["-c", script], timeout: 30)
            let pid = try #require(Int32(run.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(run.output)")
            // Gone, or a zombie waiting for a reaper that is not us: either way no longer running.
            let dead = Reliability.eventually(timeout: 10) {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
                let state = stat.split(separator: ")").last?.split(separator: " ").first
                return state == "Z" || state == "X"
            }
            if !dead { kill(pid, SIGKILL) }
            #expect(dead, "sleep \(pid) outlived the shell that started it")
        }
    }
}
