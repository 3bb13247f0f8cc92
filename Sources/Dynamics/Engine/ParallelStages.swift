/// How one step splits a stage into blocks over its world's workers (docs/ENGINE.md, "Parallel step"): the
/// items of a stage (bodies, a colour's chunks) in contiguous ranges, each range one block with its own writes.
/// With no workers, or a world too small to pay for the hand-over, every stage runs whole on the stepping
/// thread. The blocks' boundaries never change what is computed: every item is computed the same way whichever
/// block (and thread) it falls in, and nothing is summed across items.
struct ParallelStages {
    /// nil: serial.
    let workers: StepWorkers?

    /// The workers when the world has enough awake bodies to use them (`Tuning.parallelMinBodies`).
    init(_ workers: StepWorkers?, awakeBodies: Int) {
        self.workers = workers.flatMap { $0.count > 1 && awakeBodies >= Tuning.parallelMinBodies ? $0 : nil }
    }

    var isParallel: Bool { workers != nil }

    /// How many blocks `run` splits `items` into.
    @inline(__always) func blockCount(_ items: Int, minPerBlock: Int) -> Int {
        guard let w = workers, items >= 2 * minPerBlock else { return 1 }
        // A few blocks per worker, so that a worker that starts late (another thread had its core) costs
        // little: the others take its blocks.
        return min(items / minPerBlock, 4 * w.count)
    }

    /// Calls `body` with ranges covering `0 ..< items` exactly once, at least `minPerBlock` items to a range
    /// (a stage of fewer items runs whole on the caller).
    @inline(__always) func run(_ items: Int, minPerBlock: Int, _ body: (Range<Int>) -> Void) {
        run(items, minPerBlock: minPerBlock) { _, range in body(range) }
    }

    /// `run` with each range's block index (0 ..< `blockCount`), for stages that keep per-block results.
    @inline(__always) func run(_ items: Int, minPerBlock: Int, _ body: (Int, Range<Int>) -> Void) {
        let blocks = blockCount(items, minPerBlock: minPerBlock)
        guard let w = workers, blocks > 1 else {
            body(0, 0 ..< items)
            return
        }
        let per = (items + blocks - 1) / blocks
        w.parallel(blocks: blocks) { k in
            // The last blocks may be empty (per × blocks can exceed items): they still run, with no items.
            let lo = min(items, k * per), hi = min(items, lo + per)
            body(k, lo ..< hi)
        }
    }
}
