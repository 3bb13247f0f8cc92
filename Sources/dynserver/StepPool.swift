import DynRoom
#if canImport(Glibc)
import Glibc
#endif

/// `--threads N` worker threads that advance a batch of rooms in parallel while the loop thread waits
/// (docs/ARCHITECTURE.md, Rooms and threads).
///
/// Guarantees: `run` returns only once every room of the batch has been advanced, each by exactly one worker
/// and exactly once; a pthread mutex orders everything a worker did before `run` returns (so ThreadSanitizer
/// sees the hand-over, which it does not for Synchronization.Mutex on Linux); workers touch no libuv handle
/// and no session; `stop` joins every worker.
final class StepPool: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only with `mutex` held, and the rooms in a
    // batch are touched by their one worker only while the loop thread waits in `run` (fork and join).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let batchDone = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var batch: [StepJob] = []
    private var next = 0
    private var remaining = 0
    private var stopping = false
    private var threads: [pthread_t] = []
    let threadCount: Int

    init(threads count: Int) {
        threadCount = count
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workAvailable, nil)
        pthread_cond_init(batchDone, nil)
        for _ in 0..<count {
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { argument in
                Unmanaged<StepPool>.fromOpaque(argument!).takeUnretainedValue().work()
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
            if started == 0 { threads.append(thread) }
        }
    }

    deinit {
        stop()
        pthread_cond_destroy(batchDone)
        pthread_cond_destroy(workAvailable)
        pthread_mutex_destroy(mutex)
        batchDone.deallocate()
        workAvailable.deallocate()
        mutex.deallocate()
    }

    /// Runs every job on the workers and waits for all of them.
    func run(_ jobs: [StepJob]) {
        guard !jobs.isEmpty else { return }
        guard !threads.isEmpty else {
            for job in jobs { job.run() }
            return
        }
        pthread_mutex_lock(mutex)
        batch = jobs
        next = 0
        remaining = jobs.count
        pthread_cond_broadcast(workAvailable)
        while remaining > 0 { pthread_cond_wait(batchDone, mutex) }
        batch = []
        pthread_mutex_unlock(mutex)
    }

    /// Ends and joins the workers (shutdown); idempotent.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(workAvailable)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    private func work() {
        pthread_mutex_lock(mutex)
        while true {
            while next >= batch.count && !stopping { pthread_cond_wait(workAvailable, mutex) }
            if stopping { break }
            let job = batch[next]
            next += 1
            pthread_mutex_unlock(mutex)
            job.run()
            pthread_mutex_lock(mutex)
            remaining -= 1
            if remaining == 0 { pthread_cond_signal(batchDone) }
        }
        pthread_mutex_unlock(mutex)
    }
}

/// One room to advance on a worker: the room's own step and encoding (`Room.advance`), nothing else.
struct StepJob: @unchecked Sendable {
    // @unchecked: the room is not Sendable; it crosses to exactly one worker while the loop thread, its only
    // other user, waits in `StepPool.run` (docs/ARCHITECTURE.md, Rooms and threads).
    let room: Room
    let nowNs: UInt64
    let budgetNs: UInt64
    let audience: RoomAudience

    func run() {
        room.gaveBack = room.advance(nowNs: nowNs, budgetNs: budgetNs, audience: audience)
    }
}
