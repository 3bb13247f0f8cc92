/// `dynbench physics --compare-box2d3 PATH`: dyn and the Box2D v3 harness on the same scene in one run,
/// alternating whole runs (dyn, harness, dyn, harness, ...) `rounds` times so that both see the same machine
/// load. Prints every run's line, then one comparison line with the median of each side's per-run medians
/// and their ratio dyn / Box2D, and the same for CPU seconds of each whole run (scene setup and every step:
/// dyn's thread, the harness's process), which a busy machine distorts far less than elapsed time.
extension PhysicsBench {
    func compare(with harness: Box2DHarness) throws {
        let size = resolvedSize
        let mode = wakeOne ? "wake_one" : nil
        let mapped = mode == nil ? Box2DHarness.harnessScene(for: scene, size: size) : nil
        guard let mapped else {
            let result = wakeOne
                ? wakeOneLine(try WakeOneRun(scene: sceneType, size: size, steps: steps, settleCap: settleSteps).run())
                : line(try physicsRun.run())
            print(result)
            let what = wakeOne ? "wake-one mode" : "scene \(scene)"
            print("{\"compare\":\"box2d3\",\"scene\":\"\(scene)\",\"size\":\(size),\"harness\":\"\(harness.path)\","
                + "\"harness_lacks\":\"\(wakeOne ? "wake_one" : scene)\",\"note\":\"the harness has no \(what)\"}")
            return
        }
        var dynMedians: [Double] = [], boxMedians: [Double] = [], dynCPU: [Double] = [], boxCPU: [Double] = []
        for _ in 0..<rounds {
            let r = try physicsRun.run()
            print(line(r))
            dynMedians.append(r.median)
            dynCPU.append(r.cpuSeconds)
            let b = try harness.run(scene: mapped.name, size: mapped.size, steps: steps, sleeping: !noSleep)
            print(b.line)
            boxMedians.append(b.median)
            boxCPU.append(b.cpuSeconds)
        }
        let dyn = Stats.median(dynMedians), box = Stats.median(boxMedians)
        let dynC = Stats.median(dynCPU), boxC = Stats.median(boxCPU)
        let list = { (v: [Double]) in "[" + v.map(Stats.fixed).joined(separator: ",") + "]" }
        let note = mapped.note.map { ",\"note\":\"\($0)\"" } ?? ""
        print("{\"compare\":\"box2d3\",\"scene\":\"\(scene)\",\"size\":\(size),\"steps\":\(steps),"
            + "\"sleep\":\(!noSleep),\"rounds\":\(rounds),\"harness\":\"\(harness.path)\","
            + "\"harness_scene\":\"\(mapped.name) \(mapped.size)\",\"dyn_ms_per_step_median\":\(Stats.fixed(dyn)),"
            + "\"box2d_ms_per_step_median\":\(Stats.fixed(box)),\"ratio_dyn_over_box2d\":\(Stats.fixed(dyn / box)),"
            + "\"dyn_round_medians\":\(list(dynMedians)),\"box2d_round_medians\":\(list(boxMedians)),"
            + "\"dyn_cpu_s_total\":\(Stats.fixed(dynC)),\"box2d_cpu_s_total\":\(Stats.fixed(boxC)),"
            + "\"ratio_cpu_total\":\(boxC > 0 ? Stats.fixed(dynC / boxC) : "null")\(note)}")
    }
}
