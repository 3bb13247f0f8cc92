import Foundation
import Testing

/// `dynbench physics` run as a process: Box2D v3's benchmark scenes, `--wake-one` and `--compare-box2d3`
/// (against a stand-in harness script, since the real one is built outside the repository). Sizes are tiny:
/// these check what the commands build and print, not how fast anything is. One process at a time, in a run
/// of its own (`make test`): a bench process must not compete with another, nor with the end-to-end suites.
@Suite(.serialized) struct DynbenchPhysicsTests {
    /// Each scene at a small size: one line, with the number of dynamic items its geometry implies.
    @Test(.timeLimit(.minutes(5)), arguments: [
        ("pyramid", 4, 10), ("rain", 20, 20), ("large_pyramid", 3, 6), ("many_pyramids", 1, 55),
        // 10 × 10 circles, 7 anchored at the top of the middle columns.
        ("joint_grid", 10, 93), ("tumbler", 3, 9),
        // The hammer plus 6 columns × 4 rows.
        ("smash", 6, 25), ("spinner", 30, 30), ("bounce", 30, 30),
    ])
    func sceneBuildsItsBodies(scene: String, size: Int, bodies: Int) throws {
        let run = try BenchProcess.run(["physics", "--scene", scene, "--size", "\(size)", "--steps", "12", "--no-sleep"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 1)
        let line = try #require(run.lines.first)
        #expect(line["engine"] as? String == "dyn")
        #expect(line["scene"] as? String == scene)
        #expect(line["bodies"] as? Int == bodies)
        #expect(line["steps"] as? Int == 12)
        #expect((line["ms_per_step_median"] as? Double ?? -1) > 0)
    }

    /// `--stages`: every `StepStage` by name with its mean ms per step and its share; the shares add up to the
    /// whole step, and a pyramid's step spends time in its proxies, contacts, preparation and sub-steps.
    @Test(.timeLimit(.minutes(5))) func stagesChargeTheStepToEveryStage() throws {
        let run = try BenchProcess.run(["physics", "--scene", "pyramid", "--size", "10", "--steps", "40", "--no-sleep",
                                        "--stages"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.lines.first)
        let ms = try #require(line["stages_ms_mean"] as? [String: Any])
        let share = try #require(line["stages_share"] as? [String: Any])
        let names = ["behaviors", "proxies", "contacts", "awakeLists", "prepare", "substeps", "restitution",
                     "continuous", "finalize", "sleep", "groups"]
        #expect(Set(ms.keys) == Set(names) && Set(share.keys) == Set(names))
        let total = names.compactMap { share[$0] as? Double }.reduce(0, +)
        #expect(abs(total - 1) < 0.01, "shares add up to \(total)")
        for busy in ["proxies", "contacts", "prepare", "substeps"] {
            #expect((ms[busy] as? Double ?? 0) > 0, "\(busy) took time")
        }
    }

    @Test(.timeLimit(.minutes(5))) func stagesRefuseTheComparison() throws {
        let run = try BenchProcess.run(["physics", "--scene", "pyramid", "--size", "4", "--stages", "--wake-one"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--stages times a plain run"))
    }

    /// The pyramid stands: after 1 s its top box is where it started (within 1 cm).
    @Test(.timeLimit(.minutes(5))) func largePyramidStands() throws {
        let run = try BenchProcess.run(["physics", "--scene", "large_pyramid", "--size", "5", "--steps", "60", "--no-sleep"])
        let line = try #require(run.lines.first)
        #expect(abs((line["top_y_end"] as? Double ?? 0) - 4.5) < 0.01)
        #expect((line["max_disp_end"] as? Double ?? 1) < 0.01)
    }

    /// The tumbler's velocity motors turn its walls, which carry the boxes round: they end far from where
    /// they started.
    @Test(.timeLimit(.minutes(5))) func tumblerTurnsItsContents() throws {
        let run = try BenchProcess.run(["physics", "--scene", "tumbler", "--size", "4", "--steps", "240"])
        let line = try #require(run.lines.first)
        #expect((line["max_disp_end"] as? Double ?? 0) > 5)
        #expect(line["settled"] as? Bool == false)
    }

    /// `--wake-one`: a pyramid settles, then its top box (the last one added: ground is item 1) is pushed
    /// and stays awake for the timed steps.
    @Test(.timeLimit(.minutes(5))) func wakeOneSettlesThenKeepsTheTopBoxAwake() throws {
        let run = try BenchProcess.run(["physics", "--scene", "pyramid", "--size", "4", "--steps", "30", "--wake-one"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.lines.first)
        #expect(line["mode"] as? String == "wake_one")
        #expect(line["settled_before_push"] as? Bool == true)
        #expect((line["settle_steps"] as? Int ?? 0) > 0)
        #expect(line["pushed_item"] as? Int == 11)
        #expect(line["settled"] as? Bool == false)
        #expect((line["moving_end"] as? Int ?? 0) >= 1)
        #expect((line["top_y_end"] as? Double ?? 0) > 3.4)
    }

    /// `--wake-one --apart`: the pushed item is a lone box away from the pyramid (ground 1, boxes 2...11,
    /// its ledge 12, itself 13), so the pyramid stays asleep while the world keeps running.
    @Test(.timeLimit(.minutes(5))) func wakeOneApartKeepsOnlyTheLoneBoxAwake() throws {
        let run = try BenchProcess.run(["physics", "--scene", "pyramid", "--size", "4", "--steps", "30", "--wake-one",
                                        "--apart"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.lines.first)
        #expect(line["pushed_item"] as? Int == 13)
        #expect(line["apart"] as? Bool == true)
        #expect(line["settled"] as? Bool == false)
        #expect(line["moving_end"] as? Int == 0)
    }

    @Test(.timeLimit(.minutes(5))) func wakeOneRefusesNoSleep() throws {
        let run = try BenchProcess.run(["physics", "--wake-one", "--no-sleep"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--wake-one needs sleeping"))
    }

    /// `--compare-box2d3`: dyn and the harness alternate, the harness gets the same scene, size, steps and
    /// sleep setting, and the last line holds both medians and their ratio.
    @Test(.timeLimit(.minutes(5))) func compareAlternatesRunsAndPrintsTheRatio() throws {
        let dir = try BenchProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = try BenchProcess.fakeHarness(median: 0.25, in: dir)
        let run = try BenchProcess.run(["physics", "--scene", "pyramid", "--size", "4", "--steps", "20", "--no-sleep",
                                        "--compare-box2d3", fake.script.path, "--rounds", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.map { $0["engine"] as? String ?? $0["compare"] as? String ?? "?" }
            == ["dyn", "box2d-fake", "dyn", "box2d-fake", "box2d3"])
        let calls = try String(contentsOf: fake.log, encoding: .utf8).split(separator: "\n")
        #expect(calls == ["pyramid 4 20 --no-sleep", "pyramid 4 20 --no-sleep"])
        let summary = try #require(run.lines.last)
        #expect(summary["box2d_ms_per_step_median"] as? Double == 0.25)
        let dynMedians = [run.lines[0], run.lines[2]].map { $0["ms_per_step_median"] as? Double ?? 0 }
        let dyn = try #require(summary["dyn_ms_per_step_median"] as? Double)
        #expect(abs(dyn - (dynMedians[0] + dynMedians[1]) / 2) < 1e-3)
        let ratio = try #require(summary["ratio_dyn_over_box2d"] as? Double)
        #expect(abs(ratio - dyn / 0.25) < 1e-3)
        // CPU seconds of each side's whole runs: dyn's are real work, the script's next to nothing.
        #expect((summary["dyn_cpu_s_total"] as? Double ?? 0) > 0)
        #expect(summary["box2d_cpu_s_total"] is Double)
    }

    /// A scene the harness does not have is run by dyn alone and reported as missing; the harness is not run.
    @Test(.timeLimit(.minutes(5))) func compareReportsAMissingScene() throws {
        let dir = try BenchProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = try BenchProcess.fakeHarness(median: 0.25, in: dir)
        let run = try BenchProcess.run(["physics", "--scene", "joint_grid", "--size", "3", "--steps", "12",
                                        "--compare-box2d3", fake.script.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.count == 2)
        #expect(run.lines.last?["harness_lacks"] as? String == "joint_grid")
        #expect(!FileManager.default.fileExists(atPath: fake.log.path))
    }

    /// `--clock cpu` times steps on the stepping thread's CPU clock and says so; the comparison refuses it
    /// (the harness times on the wall clock).
    @Test(.timeLimit(.minutes(5))) func cpuClockIsReportedAndRefusedByTheComparison() throws {
        let run = try BenchProcess.run(["physics", "--scene", "pyramid", "--size", "4", "--steps", "12", "--clock", "cpu"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.first?["clock"] as? String == "cpu")
        #expect((run.lines.first?["ms_per_step_median"] as? Double ?? 0) > 0)
        let refused = try BenchProcess.run(["physics", "--clock", "cpu", "--compare-box2d3", BenchProcess.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("wall clock"))
    }

    @Test(.timeLimit(.minutes(5))) func compareRefusesAMissingHarness() throws {
        let run = try BenchProcess.run(["physics", "--compare-box2d3", "/nonexistent/bench3"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("is not an executable file"))
    }
}
