import Foundation
import Testing

extension EndToEnd {
    /// `scripts/bootstrap.sh`, which `make run` and `make test` run first: on a machine that has everything it
    /// touches nothing (no apt-get, nothing the build depends on changes), and `scripts/why-build.sh` says why
    /// a release build will do work (README, "Two commands").
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct BootstrapTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// A PATH whose `apt-get` and `sudo` only write their arguments to `log`.
        static func fakeApt(in dir: ScratchDirectory) throws -> (path: String, log: String) {
            let log = dir.path + "/apt.log"
            for name in ["apt-get", "sudo"] {
                let script = dir.path + "/" + name
                try "#!/bin/sh\necho \"\(name) $*\" >> '\(log)'\n".write(toFile: script, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
            }
            return (dir.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), log)
        }

        @Test(.enabled(if: RequiredTool.all.allSatisfy { $0.path != nil }, "a tool is missing here: bootstrap would install it"))
        func nothingMissingMeansNothingTouched() throws {
            let dir = try ScratchDirectory()
            let (path, log) = try Self.fakeApt(in: dir)
            let run = try ExternalTool.run("/usr/bin/env", ["PATH=\(path)", "DYN_HIDE_TOOLS=", "bash", Self.root.path + "/scripts/bootstrap.sh"], timeout: 30)
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.isEmpty, "bootstrap said: \(run.output)")
            #expect(!FileManager.default.fileExists(atPath: log), "apt-get ran: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }

        @Test func whyBuildSaysWhyOrNothing() throws {
            let dir = try ScratchDirectory()
            let none = try ExternalTool.run("/bin/sh", ["-c", "cd '\(Self.root.path)' && scripts/why-build.sh '\(dir.path)/nothing'"], timeout: 30)
            #expect(none.status == 0 && none.output.contains("no release build yet"), "\(none.output)")
            // A binary newer than every source: silent (unless system headers are newer still).
            let fresh = dir.path + "/fresh"
            try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: fresh + "/dynserver", contents: Data()))
            let quiet = try ExternalTool.run("/bin/sh", ["-c", "cd '\(Self.root.path)' && scripts/why-build.sh '\(fresh)'"], timeout: 30)
            #expect(quiet.status == 0 && !quiet.output.contains("changed since"), "\(quiet.output)")
            // A binary older than the sources: names what changed.
            let old = dir.path + "/old"
            try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: old + "/dynserver", contents: Data(),
                                           attributes: [.modificationDate: Date(timeIntervalSince1970: 0)]))
            let stale = try ExternalTool.run("/bin/sh", ["-c", "cd '\(Self.root.path)' && scripts/why-build.sh '\(old)'"], timeout: 30)
            #expect(stale.status == 0 && stale.output.contains("changed since the last build: "), "\(stale.output)")
        }
    }
}
