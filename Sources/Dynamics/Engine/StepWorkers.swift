#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Worker threads that one world's step splits its parallel stages over (Box2D v3's workers; docs/ENGINE.md,
/// "Parallel step"). Hand a set to a world through `DynamicAnimator.workers`; one set may serve many worlds.
///
/// Guarantees:
/// - `parallel(blocks:_:)` runs `body` exactly once for every block index and returns only when all have run;
///   the calling thread works too. Which thread runs which block is unspecified, so a stage must give every
///   block its own writes: then the result does not depend on the number of workers, bit for bit.
/// - Everything a block wrote happens-before `parallel` returns, through atomics with acquire/release ordering
///   (ThreadSanitizer sees them), and everything written before the call is visible to every block.
/// - One stage at a time: a call made while another is running (two worlds stepped on two threads sharing one
///   set) runs its blocks on the calling thread alone, which gives the same result.
/// - Idle workers spin briefly for the next stage of a step, then sleep on a pthread condition variable, so a
///   set costs nothing between steps. `deinit` stops and joins the threads. No libuv anywhere.
/// - The caller never waits for a worker that is not running: once every block is claimed it closes the
///   stage, and waits only for the workers that entered it (and are finishing a block). A worker that wakes
///   late finds the stage closed and goes back to wait, so a busy machine (workers descheduled) costs no
///   more than running the blocks on the caller alone.
public final class StepWorkers: @unchecked Sendable {
    // @unchecked: `job` and `blockCount` are written only by the thread that won `busy`, before the release
    // store to `gate`, and read by a worker only after it entered the stage with an acquiring exchange on
    // `gate`, until it leaves with a releasing decrement; the caller clears `job` only after it closed the
    // stage and saw nobody inside (an acquiring load).
    /// Threads taking part in a stage, the caller included (1: everything runs on the caller).
    public let count: Int
    private let epoch = Atomic<Int>(0)
    private let nextBlock = Atomic<Int>(0)
    /// The stage workers may enter: its epoch in the high 32 bits, `closedBit`, and the workers inside in the
    /// low bits.
    private let gate = Atomic<Int>(0)
    private static let closedBit = 1 << 31
    private static let insideMask = closedBit - 1
    private let busy = Atomic<Bool>(false)
    private let stopFlag = Atomic<Bool>(false)
    private var job: ((Int) -> Void)?
    private var blockCount = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var threads: [pthread_t] = []
    /// Stages handed to the worker threads so far (written only by the thread that runs them; for tests).
    public private(set) var parallelStages = 0

    /// How many times an idle worker polls for the next stage before yielding, and yields before sleeping:
    /// the stages of one step follow each other within microseconds; between steps the workers sleep.
    private static let spinPolls = 4_000
    private static let yieldPolls = 64

    /// `threads` workers in all, the caller included: `threads - 1` threads are started (none for 1).
    public init(threads: Int) {
        count = max(1, threads)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
        for _ in 1..<count {
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { argument in
                Unmanaged<StepWorkers>.fromOpaque(argument!).takeUnretainedValue().work()
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
            precondition(started == 0, "StepWorkers: pthread_create failed (\(started))")
            self.threads.append(thread)
        }
    }

    deinit {
        stopFlag.store(true, ordering: .releasing)
        epoch.add(1, ordering: .releasing)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(wake)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(mutex)
        wake.deallocate()
        mutex.deallocate()
    }

    /// Runs `body(k)` for every k in 0 ..< `blocks` on the workers and the caller; returns when all are done.
    public func parallel(blocks: Int, _ body: (Int) -> Void) {
        guard blocks > 0 else { return }
        guard count > 1, blocks > 1,
              busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for k in 0..<blocks { body(k) }
            return
        }
        parallelStages += 1
        withoutActuallyEscaping(body) { body in
            job = body
            blockCount = blocks
            nextBlock.store(0, ordering: .relaxed)
            let stage = (epoch.load(ordering: .relaxed) + 1) & 0xFFFF_FFFF
            gate.store(stage << 32, ordering: .releasing)
            epoch.store(stage, ordering: .releasing)
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)
            runBlocks(body, blocks)
            // Every block is claimed: close the stage, then wait only for the workers inside it (each is
            // finishing a block it claimed). After that no worker reads `job`.
            gate.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing)
            var polls = 0
            while gate.load(ordering: .acquiring) & Self.insideMask != 0 {
                polls += 1
                if polls > Self.spinPolls { sched_yield() }
            }
            job = nil
        }
        busy.store(false, ordering: .releasing)
    }

    @inline(__always) private func runBlocks(_ body: (Int) -> Void, _ blocks: Int) {
        while true {
            let k = nextBlock.wrappingAdd(1, ordering: .relaxed).oldValue
            if k >= blocks { return }
            body(k)
        }
    }

    private func work() {
        var seen = 0
        while true {
            var polls = 0
            var now = epoch.load(ordering: .acquiring)
            while now == seen {
                polls += 1
                if polls > Self.spinPolls + Self.yieldPolls {
                    pthread_mutex_lock(mutex)
                    while epoch.load(ordering: .acquiring) == seen { pthread_cond_wait(wake, mutex) }
                    pthread_mutex_unlock(mutex)
                    polls = 0
                } else if polls > Self.spinPolls {
                    sched_yield()
                }
                now = epoch.load(ordering: .acquiring)
            }
            seen = now
            if stopFlag.load(ordering: .acquiring) { return }
            guard enter(stage: now) else { continue }
            if let body = job { runBlocks(body, blockCount) }
            gate.subtract(1, ordering: .releasing)
        }
    }

    /// Joins stage `stage` unless the caller closed it (or already opened a newer one).
    private func enter(stage: Int) -> Bool {
        var current = gate.load(ordering: .relaxed)
        while current >> 32 == stage, current & Self.closedBit == 0 {
            let (exchanged, original) = gate.compareExchange(expected: current, desired: current + 1, ordering: .acquiring)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
