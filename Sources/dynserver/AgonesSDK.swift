import Logging
import NetProtocol
import NetLoop

/// The Agones SDK's REST API, spoken to the SDK sidecar on localhost (`AGONES_SDK_HTTP_PORT`, docs/DEPLOY.md):
/// `POST /ready` once the server listens, `POST /health` every 2 s while `GET /healthz` (liveness, never
/// Redis) would say 200, `POST /allocate` when the first client arrives and `POST /ready` again when the last
/// one leaves (so scale-down and rolling updates never take a server with players), a `rooms` label
/// (`PUT /metadata/label`) and a `rooms` Counter (`PATCH /v1beta1/counters/rooms`, count = loaded rooms,
/// capacity = `--max-rooms`) whenever they change, and `POST /shutdown` after the SIGTERM drain.
///
/// Guarantees: a call the sidecar does not answer (not up yet, restarting) is retried quietly on the next
/// 2-second round (`ready`, `allocate`, the label and the Counter until they succeed; one line in the log,
/// not one per try); nothing blocks the loop (LoopHTTPClient); `shutdown()` sends `POST /shutdown`, waits at
/// most 2 s for it, then closes every handle it opened.
final class AgonesSDK {
    static let periodMs: UInt64 = 2000
    private let base: String
    private let http: LoopHTTPClient
    private let timer: UVTimer
    private let log: Logger
    /// What the server says about its health (nil: healthy), and how many rooms it holds.
    private let problem: () -> String?
    private let roomCount: () -> Int
    private let members: () -> Int
    private let capacity: Int
    private var ready = false
    /// Whether the sidecar was last told Allocated (true) or Ready (false).
    private var allocated = false
    private var labelled: Int?
    private var counted: Int?
    private var warned = false
    private var stopping = false

    init(loop: EventLoop, port: Int, log: Logger, problem: @escaping () -> String?, roomCount: @escaping () -> Int,
         capacity: Int, members: @escaping () -> Int) throws {
        self.members = members
        self.capacity = capacity
        base = "http://127.0.0.1:\(port)"
        http = try LoopHTTPClient(loop: loop)
        timer = try UVTimer(loop: loop)
        self.log = log
        self.problem = problem
        self.roomCount = roomCount
    }

    /// Starts the rounds: `ready` at once, then every 2 s health, allocation, the label and the Counter.
    func start() throws {
        try timer.start(afterMs: 0, repeatMs: Self.periodMs) { [unowned self] in self.round() }
    }

    private func round() {
        guard !stopping else { return }
        if !ready {
            call("POST", "/ready") { [unowned self] ok in
                if ok {
                    self.ready = true
                    self.log.notice("agones: ready")
                    self.round()
                }
            }
            return
        }
        if problem() == nil { call("POST", "/health") { _ in } }
        let rooms = roomCount()
        if rooms != labelled {
            call("PUT", "/metadata/label", json: #"{"key":"rooms","value":"\#(rooms)"}"#) { [unowned self] ok in
                if ok { self.labelled = rooms }
            }
        }
        if rooms != counted {
            call("PATCH", "/v1beta1/counters/rooms", json: #"{"count":\#(rooms),"capacity":\#(capacity)}"#) { [unowned self] ok in
                if ok { self.counted = rooms }
            }
        }
        let playing = members() > 0
        if playing != allocated {
            call("POST", playing ? "/allocate" : "/ready") { [unowned self] ok in
                if ok {
                    self.allocated = playing
                    self.log.notice("agones: \(playing ? "allocated (clients connected)" : "ready (no client left)")")
                }
            }
        }
    }

    private func call(_ method: String, _ path: String, json: String = "{}", done: @escaping (Bool) -> Void) {
        http.send(method, base + path, json: json) { [weak self] status in
            guard let self else { return }
            let ok = status.map { (200..<300).contains($0) } ?? false
            if !ok, !self.warned, !self.stopping {
                self.warned = true
                self.log.warning("agones: \(method) \(path) to the SDK sidecar at \(self.base) got \(status.map(String.init) ?? "no answer"); retrying quietly every \(Self.periodMs / 1000) s")
            }
            if ok { self.warned = false }
            done(ok)
        }
    }

    /// After the drain: `POST /shutdown` (Agones then deletes the pod), then every handle closes.
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        timer.stop()
        http.send("POST", base + "/shutdown", json: "{}", timeoutMs: 2000) { [weak self] status in
            self?.log.notice("agones: shutdown \(status.map { "answered \($0)" } ?? "not answered")")
            self?.close()
        }
    }

    private func close() {
        timer.close()
        http.close()
    }
}
