import DynRoom
import NetProtocol
import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// `--threads N` worker threads that run rooms' jobs while the loop thread goes on (docs/ARCHITECTURE.md,
/// Rooms and threads): the loop submits a job and returns at once; a worker runs it and posts it back, waking
/// the loop through `AsyncWaker`.
///
/// Guarantees: `submit` and `takeFinished` hold the lock only to move a job between lists, so the loop never
/// waits for a room; each job runs exactly once, on one worker, and comes back exactly once, in `takeFinished`,
/// after which everything the worker did is visible to the loop thread (a pthread mutex orders the hand-over,
/// which ThreadSanitizer sees, unlike Synchronization.Mutex on Linux); workers touch no libuv handle and no
/// session, only their job's room and `uv_async_send`; `stop` lets running jobs finish and joins every worker.
final class RoomWorkers: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only with `mutex` held; a job's room is touched
    // by its worker only between `submit` and `takeFinished`, while the front leaves it alone (RoomRun.onWorker).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [RoomJob] = []
    private var queueHead = 0
    private var finished: [RoomJob] = []
    private var stopping = false
    private var threads: [pthread_t] = []
    private let wake: AsyncWaker.Signal
    let threadCount: Int

    init(threads count: Int, wake: AsyncWaker.Signal) {
        threadCount = count
        self.wake = wake
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workAvailable, nil)
        for _ in 0..<count {
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { argument in
                Unmanaged<RoomWorkers>.fromOpaque(argument!).takeUnretainedValue().work()
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
            if started == 0 { threads.append(thread) }
        }
    }

    deinit {
        stop()
        pthread_cond_destroy(workAvailable)
        pthread_mutex_destroy(mutex)
        workAvailable.deallocate()
        mutex.deallocate()
    }

    /// Queues a job at the back (loop thread); returns at once.
    func submit(_ job: RoomJob) {
        pthread_mutex_lock(mutex)
        queue.append(job)
        pthread_cond_signal(workAvailable)
        pthread_mutex_unlock(mutex)
    }

    /// The jobs done since the last call, in the order they finished (loop thread).
    func takeFinished() -> [RoomJob] {
        pthread_mutex_lock(mutex)
        let done = finished
        finished = []
        pthread_mutex_unlock(mutex)
        return done
    }

    /// Ends and joins the workers (shutdown): jobs queued and not started are dropped, running ones finish and
    /// wait in `takeFinished`. Idempotent.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(workAvailable)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    /// Jobs queued and not started (shutdown hands their rooms back).
    func takeQueued() -> [RoomJob] {
        pthread_mutex_lock(mutex)
        let left = Array(queue[queueHead...])
        queue = []
        queueHead = 0
        pthread_mutex_unlock(mutex)
        return left
    }

    private func work() {
        pthread_mutex_lock(mutex)
        while true {
            while queueHead >= queue.count && !stopping { pthread_cond_wait(workAvailable, mutex) }
            if stopping { break }
            let job = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            pthread_mutex_unlock(mutex)
            job.run()
            pthread_mutex_lock(mutex)
            finished.append(job)
            wake.send()
        }
        pthread_mutex_unlock(mutex)
    }
}

/// One room's job on a worker (Room.work): its long `step` slice or its due ticks, and a requested save.
final class RoomJob: @unchecked Sendable {
    // @unchecked: the room is not Sendable; it crosses to exactly one worker and back through RoomWorkers'
    // mutex, and the front does not touch it meanwhile (docs/ARCHITECTURE.md, Rooms and threads).
    let room: Room
    let nowNs: UInt64
    let budgetNs: UInt64
    let audience: RoomAudience

    init(room: Room, nowNs: UInt64, budgetNs: UInt64, audience: RoomAudience) {
        self.room = room
        self.nowNs = nowNs
        self.budgetNs = budgetNs
        self.audience = audience
    }

    /// The room's ticks due when the job starts (it may have waited for a worker), within one budget.
    func run() {
        room.work(nowNs: max(nowNs, MonotonicClock.nowNs), budgetNs: budgetNs, audience: audience)
    }
}
