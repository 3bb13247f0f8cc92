import CCurl
import CLibUV
import NetProtocol
import NetLoop

/// Small HTTP requests made by libcurl's multi interface on the server's loop (curl's own event API:
/// `curl_multi_socket_action`, driven by one `uv_poll_t` per socket curl opens and one `UVTimer` for its
/// timeouts). Used for the Agones SDK's REST calls (AgonesSDK).
///
/// Guarantees: nothing blocks the loop (no `curl_easy_perform`; `CURLOPT_NOSIGNAL`, a per-request timeout);
/// every request's `done` is called exactly once on the loop thread with its HTTP status (nil: no answer),
/// unless `close()` came first; every poll handle is closed with `uv_close` and freed in its close callback;
/// `close()` removes every request, closes the timer and the polls, and frees curl's handles.
final class LoopHTTPClient {
    private let loop: EventLoop
    private let multi: UnsafeMutableRawPointer
    private var timer: UVTimer?
    private var requests: [UnsafeMutableRawPointer: Request] = [:]
    private var sockets: [Int32: UnsafeMutablePointer<uv_poll_t>] = [:]
    private var closed = false

    /// A request in flight: what to call, and the memory curl reads until it is done.
    private final class Request {
        let done: (Int?) -> Void
        let headers: UnsafeMutablePointer<curl_slist>?
        init(done: @escaping (Int?) -> Void, headers: UnsafeMutablePointer<curl_slist>?) {
            self.done = done
            self.headers = headers
        }
    }

    init(loop: EventLoop) throws {
        self.loop = loop
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard let multi = curl_multi_init() else { throw ServerStartError("libcurl: cannot create a multi handle") }
        self.multi = multi
        timer = try UVTimer(loop: loop)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = dyn_curl_multi_setopt_ptr(multi, CURLMOPT_SOCKETDATA, me)
        _ = dyn_curl_multi_setopt_ptr(multi, CURLMOPT_TIMERDATA, me)
        _ = dyn_curl_multi_socket_fn(multi) { _, fd, what, userp, _ in
            guard let userp else { return 0 }
            Unmanaged<LoopHTTPClient>.fromOpaque(userp).takeUnretainedValue().watch(fd, what: what)
            return 0
        }
        _ = dyn_curl_multi_timer_fn(multi) { _, timeoutMs, userp in
            guard let userp else { return 0 }
            Unmanaged<LoopHTTPClient>.fromOpaque(userp).takeUnretainedValue().schedule(timeoutMs)
            return 0
        }
    }

    /// Sends `method` `url` with a JSON `body`; `done` gets the status code, or nil when nothing answered
    /// within `timeoutMs` (connection refused, no such host, timeout).
    func send(_ method: String, _ url: String, json body: String, timeoutMs: Int = 2000, done: @escaping (Int?) -> Void) {
        guard !closed, let easy = curl_easy_init() else {
            done(nil)
            return
        }
        let headers = curl_slist_append(nil, "Content-Type: application/json")
        _ = url.withCString { dyn_curl_easy_setopt_ptr(easy, CURLOPT_URL, $0) }
        _ = method.withCString { dyn_curl_easy_setopt_ptr(easy, CURLOPT_CUSTOMREQUEST, $0) }
        _ = dyn_curl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.utf8.count)
        _ = body.withCString { dyn_curl_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, $0) }
        _ = dyn_curl_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headers)
        _ = dyn_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeoutMs)
        _ = dyn_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        // The answer's body is not needed: a write function that takes everything and keeps nothing.
        _ = dyn_curl_easy_write_fn(easy) { _, size, count, _ in size * count }
        requests[easy] = Request(done: done, headers: headers)
        if curl_multi_add_handle(multi, easy) != CURLM_OK {
            finish(easy, status: nil)
        }
    }

    private func schedule(_ timeoutMs: Int) {
        guard let timer, !closed else { return }
        guard timeoutMs >= 0 else {
            timer.stop()
            return
        }
        try? timer.start(afterMs: UInt64(timeoutMs)) { [unowned self] in self.act(-1, flags: 0) }
    }

    /// curl says which socket to watch for what (`CURL_POLL_*`), or that it is done with it.
    private func watch(_ fd: Int32, what: Int32) {
        if what == CURL_POLL_REMOVE {
            if let poll = sockets.removeValue(forKey: fd) { Self.closePoll(poll) }
            return
        }
        let poll: UnsafeMutablePointer<uv_poll_t>
        if let existing = sockets[fd] {
            poll = existing
        } else {
            poll = .allocate(capacity: 1)
            guard uv_poll_init_socket(loop.uvLoop, poll, fd) == 0 else {
                poll.deallocate()
                return
            }
            poll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
            sockets[fd] = poll
        }
        var events: Int32 = 0
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events |= Int32(UV_READABLE.rawValue) }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events |= Int32(UV_WRITABLE.rawValue) }
        uv_poll_start(poll, events) { poll, status, events in
            guard let poll, let data = poll.pointee.data else { return }
            let client = Unmanaged<LoopHTTPClient>.fromOpaque(data).takeUnretainedValue()
            var fd: uv_os_fd_t = -1
            uv_fileno(UnsafeMutableRawPointer(poll).assumingMemoryBound(to: uv_handle_t.self), &fd)
            var flags: Int32 = 0
            if status < 0 { flags = CURL_CSELECT_ERR }
            if events & Int32(UV_READABLE.rawValue) != 0 { flags |= CURL_CSELECT_IN }
            if events & Int32(UV_WRITABLE.rawValue) != 0 { flags |= CURL_CSELECT_OUT }
            client.act(fd, flags: flags)
        }
    }

    private static func closePoll(_ poll: UnsafeMutablePointer<uv_poll_t>) {
        uv_poll_stop(poll)
        poll.pointee.data = nil
        uv_close(UnsafeMutableRawPointer(poll).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            handle?.withMemoryRebound(to: uv_poll_t.self, capacity: 1) { $0.deallocate() }
        }
    }

    /// Lets curl act on a socket (or its timeout, fd -1 = `CURL_SOCKET_TIMEOUT`), then collects what finished.
    private func act(_ fd: Int32, flags: Int32) {
        guard !closed else { return }
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, curl_socket_t(fd), flags, &running)
        var left: Int32 = 0
        while !closed, let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let ok = message.pointee.data.result == CURLE_OK
            var code = 0
            _ = dyn_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
            finish(easy, status: ok ? code : nil)
        }
    }

    private func finish(_ easy: UnsafeMutableRawPointer, status: Int?) {
        guard let request = requests.removeValue(forKey: easy) else { return }
        curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        curl_slist_free_all(request.headers)
        request.done(status)
    }

    /// Drops every request (their `done` is not called), closes the timer and every poll, frees curl's handles.
    func close() {
        guard !closed else { return }
        for (easy, request) in requests {
            curl_multi_remove_handle(multi, easy)
            curl_easy_cleanup(easy)
            curl_slist_free_all(request.headers)
        }
        requests.removeAll()
        closed = true
        for poll in sockets.values { Self.closePoll(poll) }
        sockets.removeAll()
        timer?.close()
        timer = nil
        curl_multi_cleanup(multi)
    }

    /// Whether any request is still waiting for its answer.
    var isBusy: Bool { !requests.isEmpty }
}
