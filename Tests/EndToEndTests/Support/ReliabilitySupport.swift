import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Knobs and measurements shared by the reliability suites.
///
/// Guarantees: every count has a short default for `make test` and a long one under `make soak`
/// (`DYN_SOAK=1`); an explicit environment variable always wins, so a run can be scaled without a rebuild.
enum Reliability {
    /// True under `make soak`.
    static var isSoak: Bool { ProcessInfo.processInfo.environment["DYN_SOAK"] == "1" }

    /// True under `make sanitize`: the server runs with AddressSanitizer, several times slower and holding
    /// freed memory in quarantine, so speed and RSS figures say nothing; the traffic still runs in full and
    /// the sanitizer judges it.
    static var isSanitized: Bool { ProcessInfo.processInfo.environment["DYN_SANITIZED"] == "1" }

    /// True under `make soak` (`DYN_TIMING=1`, a release server): speed, rate, CPU and RSS thresholds are
    /// asserted only then. `make test` checks behaviour alone, because a loaded debug run measures the
    /// machine, not the server (DEVELOPERS.md: figures belong to dynbench and `make soak`).
    static var measuresTiming: Bool { ProcessInfo.processInfo.environment["DYN_TIMING"] == "1" && !isSanitized }

    /// The integer in environment variable `name`, else `soak` under `make soak`, else `quick`.
    static func count(_ name: String, quick: Int, soak: Int) -> Int {
        if let text = ProcessInfo.processInfo.environment[name], let value = Int(text), value > 0 { return value }
        return isSoak ? soak : quick
    }

    /// The number in environment variable `name`, else `soak` under `make soak`, else `quick`.
    static func seconds(_ name: String, quick: Double, soak: Double) -> Double {
        if let text = ProcessInfo.processInfo.environment[name], let value = Double(text), value > 0 { return value }
        return isSoak ? soak : quick
    }

    /// Raises this process's soft RLIMIT_NOFILE to at least `wanted` (capped by the hard limit) and returns
    /// the soft limit now in force. Servers started afterwards inherit it.
    @discardableResult
    static func raiseFileLimit(to wanted: UInt64) -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return UInt64(limit.rlim_cur)
    }

    /// Polls `condition` every 50 ms until it holds or `timeout` seconds pass; returns its last value.
    static func eventually(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(50_000)
        }
        return true
    }
}

/// What `/proc` says about a running process: its open descriptors and resident memory.
struct ProcessProbe {
    let pid: Int32

    /// Entries in `/proc/PID/fd` (every open descriptor: sockets, pipes, the epoll fd, ...).
    var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// `VmRSS` from `/proc/PID/status`, in kilobytes.
    var residentKB: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// True while the process has not exited (a zombie counts as exited).
    var isAlive: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
        return state != "Z" && state != "X"
    }
}

extension ServerProcess {
    var probe: ProcessProbe { ProcessProbe(pid: pid) }

}


/// Checks that snapshots keep docs/UIKIT.md's promise: finite numbers, every item inside the world.
///
/// The encoder writes a non-finite number as `0`, so a NaN reaching a snapshot shows up either as text
/// (`nan`, `inf`) if the encoder ever changes, or as a body sitting exactly at the world's corner (0, 0),
/// where no item can rest because the boundary holds its center at least half its size away.
struct SnapshotSanity {
    let width: Double
    let height: Double
    /// Half-diagonal of every body by id (from `scene`): the margin an item may stick out by.
    var halfDiagonals: [Int: Double] = [:]
    private(set) var snapshotsChecked = 0
    private(set) var violations: [String] = []

    init(width: Double, height: Double, scene: SceneInfo?) {
        self.width = width
        self.height = height
        if let scene { learn(scene) }
    }

    mutating func learn(_ scene: SceneInfo) {
        for body in scene.bodies { halfDiagonals[body.id] = 0.5 * hypot(body.width, body.height) }
    }

    /// Checks one raw server line; scenes update the known sizes, snapshots are checked.
    mutating func check(line: String) {
        if line.hasPrefix("{\"type\":\"snapshot\""), SnapshotSanity.hasBareNonFinite(line) { violations.append("non-finite text in: \(line.prefix(200))") }
        switch ServerMessage.decode(line) {
        case .scene(let scene)?: learn(scene)
        case .snapshot(let snapshot)?: check(snapshot)
        default: break
        }
    }

    /// A bare `nan`/`inf` token (not inside a string) after `:`, `,`, `[` or `-`.
    static func hasBareNonFinite(_ line: String) -> Bool {
        let lower = line.lowercased()
        return [":", ",", "[", "-"].contains { lead in lower.contains(lead + "nan") || lower.contains(lead + "inf") }
    }

    mutating func check(_ snapshot: Snapshot) {
        snapshotsChecked += 1
        for body in snapshot.bodies {
            let values = [body.x, body.y, body.angle, body.vx, body.vy, body.av]
            if values.contains(where: { !$0.isFinite }) {
                violations.append("tick \(snapshot.tick) body \(body.id): non-finite \(values)")
            }
            if body.x == 0 && body.y == 0 {
                violations.append("tick \(snapshot.tick) body \(body.id) at exactly (0, 0): a NaN written as 0")
            }
            let margin = halfDiagonals[body.id] ?? 0
            if body.x < -margin || body.x > width + margin || body.y < -margin || body.y > height + margin {
                violations.append("tick \(snapshot.tick) body \(body.id) outside the world at (\(body.x), \(body.y)), margin \(margin)")
            }
        }
    }
}
