import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the Box2D v3 timing harness (`bench3`, built outside this repository) that the user points
/// `--compare-box2d3` at: `bench3 <scene> <size> <steps> [--no-sleep]`, which prints one JSON line with
/// `ms_per_step_median` (over the steps after the first 10, as dynbench). dynbench neither builds nor ships it.
struct Box2DHarness {
    let path: String

    /// The harness's scene and size for a dynbench scene, or nil when it has no such scene. `large_pyramid`
    /// is its `pyramid` with the same boxes; only the static ground is wider (220 m instead of 200 m).
    static func harnessScene(for scene: String, size: Int) -> (name: String, size: Int, note: String?)? {
        switch scene {
        case "pyramid": return ("pyramid", size, nil)
        case "rain": return ("rain", size, nil)
        case "large_pyramid": return ("pyramid", size, "harness ground is 220 m wide, dyn's 200 m")
        default: return nil
        }
    }

    struct Output {
        /// The harness's JSON line as printed.
        var line: String
        var median: Double
        /// CPU time (user + system) of the whole harness process, seconds: setup and every step.
        var cpuSeconds: Double
    }

    /// CPU seconds used by this process's reaped children so far.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
    }

    enum Failure: Error, CustomStringConvertible {
        case notRunnable(String, String)
        case failed(String, Int32, String)
        case noMedian(String, String)

        var description: String {
            switch self {
            case .notRunnable(let path, let why): "cannot run \(path): \(why)"
            case .failed(let path, let status, let err): "\(path) exited with status \(status): \(err)"
            case .noMedian(let path, let line): "\(path) printed no ms_per_step_median: \(line)"
            }
        }
    }

    func run(scene: String, size: Int, steps: Int, sleeping: Bool) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [scene, String(size), String(steps)] + (sleeping ? [] : ["--no-sleep"])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let cpuBefore = Self.childrenCPUSeconds()
        do { try process.run() } catch { throw Failure.notRunnable(path, "\(error.localizedDescription)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let cpu = Self.childrenCPUSeconds() - cpuBefore
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure.failed(path, process.terminationStatus, String(decoding: errData, as: UTF8.self))
        }
        let line = text.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let median = (object["ms_per_step_median"] as? NSNumber)?.doubleValue
        else { throw Failure.noMedian(path, line) }
        return Output(line: line, median: median, cpuSeconds: cpu)
    }
}
