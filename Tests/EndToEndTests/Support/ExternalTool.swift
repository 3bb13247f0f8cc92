import Foundation
import Testing

/// A real program outside the package that tests drive, installed by `scripts/bootstrap.sh` (its table of
/// tools lists the same names and Debian packages).
///
/// Guarantees: `path` is nil when the program is not installed, or when its name is listed in
/// `DYN_HIDE_TOOLS` (commas; a way to check what a machine without it does); `trait` skips a test that needs
/// the program when it is missing, saying how to install it, except under `CI=true`, where the test runs and
/// `require()` fails it with the same words: in CI a missing real component is a failure, never a skip.
struct RequiredTool: Sendable, CustomStringConvertible {
    /// The name in `DYN_HIDE_TOOLS` and in bootstrap's messages.
    let name: String
    /// The Debian package that provides it.
    let package: String
    /// The commands looked for on PATH, in order.
    let commands: [String]
    /// An environment variable that names the program's path instead.
    var override: String? = nil

    static let chromium = RequiredTool(name: "chromium", package: "chromium",
                                       commands: ["chromium", "chromium-browser", "google-chrome"], override: "DYN_CHROMIUM")
    static let promtool = RequiredTool(name: "promtool", package: "prometheus", commands: ["promtool"])
    static let redisServer = RequiredTool(name: "redis-server", package: "redis-server", commands: ["redis-server"])
    static let redisCli = RequiredTool(name: "redis-cli", package: "redis-tools", commands: ["redis-cli"])
    static let setpriv = RequiredTool(name: "setpriv", package: "util-linux", commands: ["setpriv"])
    /// The page's scripts (web/*.js) are checked with `node --check`.
    static let node = RequiredTool(name: "node", package: "nodejs", commands: ["node", "nodejs"])
    /// Every tool `make test` needs.
    static let all: [RequiredTool] = [.chromium, .promtool, .redisServer, .redisCli, .setpriv, .node]

    var description: String { name }

    var isHidden: Bool {
        (ProcessInfo.processInfo.environment["DYN_HIDE_TOOLS"] ?? "").split(separator: ",")
            .contains { $0.trimmingCharacters(in: .whitespaces) == name }
    }

    /// The program's path, or nil when it is missing or hidden.
    var path: String? {
        if isHidden { return nil }
        if let override, let given = ProcessInfo.processInfo.environment[override] { return given }
        for command in commands { if let found = ExternalTool.find(command) { return found } }
        return nil
    }

    /// Why it is missing and how to install it.
    var howToInstall: String {
        let why = isHidden ? "\(name) is hidden by DYN_HIDE_TOOLS" : "\(name) not found"
        let alternative = override.map { " or set \($0) to its path" } ?? ""
        return "\(why): install it with `apt-get install \(package)` (scripts/bootstrap.sh does)\(alternative)"
    }

    /// The trait of a test that drives this tool: skipped outside CI when the tool is missing, run (to fail
    /// in `require()`) under `CI=true`.
    var trait: ConditionTrait {
        .enabled(if: path != nil || ExternalTool.isCI, Comment(rawValue: howToInstall))
    }

    /// The program's path; throws, saying how to install it, when it is missing.
    func require() throws -> String {
        guard let path else {
            throw EndToEndError(ExternalTool.isCI ? "CI=true requires \(name): \(howToInstall)" : howToInstall)
        }
        return path
    }
}

/// Programs outside the package that some tests drive (see `RequiredTool`).
enum ExternalTool {
    /// True under `CI=true` (also `1`/`yes`), where a missing tool fails the tests that need it.
    static var isCI: Bool {
        ["true", "1", "yes"].contains((ProcessInfo.processInfo.environment["CI"] ?? "").lowercased())
    }

    /// The first of `names` found on PATH (or in /usr/bin), else nil.
    static func find(_ names: String...) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/local/bin"
        for name in names {
            for dir in path.split(separator: ":") {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    static var promtool: String? { RequiredTool.promtool.path }
    static var chromium: String? { RequiredTool.chromium.path }
    static var redisServer: String? { RequiredTool.redisServer.path }

    /// Runs `path` with `arguments`, `input` on stdin; returns the exit status and stdout + stderr. Throws
    /// when the program runs longer than `timeout` seconds (it is killed).
    static func run(_ path: String, _ arguments: [String], input: String = "", timeout: Double = 60) throws -> (status: Int32, output: String) {
        let outcome = try ChildProcess.run(path, arguments, input: input, timeout: timeout)
        guard let status = outcome.status else {
            throw EndToEndError("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        return (status, outcome.stdoutText + outcome.stderrText)
    }
}
