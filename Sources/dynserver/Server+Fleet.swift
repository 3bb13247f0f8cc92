import DynRoom
import NetProtocol

/// The server's hooks for a fleet (docs/DEPLOY.md): the Redis directory (`--cluster`), the Agones SDK
/// (`AGONES_SDK_HTTP_PORT`) and `GET /healthz`.
extension Server {
    /// Starts the loop-health timer, the directory and the Agones calls; called once the server listens
    /// (TCP and HTTP), so `ready` is only said when clients can connect. `tcpPort`/`httpPort` are the bound ones.
    func startFleet(tcpPort: Int, httpPort: Int?) throws {
        loopHealth = try LoopHealth(loop: loop)
        if let address = config.cluster {
            let host = config.advertiseHost ?? config.host
            let port = config.advertisePort == 0 ? tcpPort : config.advertisePort
            let me = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            let hostPart = host.contains(":") ? "[\(host)]" : host
            let httpBase = config.advertiseHTTP ?? "http://\(hostPart):\(httpPort ?? 0)"
            let directory = ClusterDirectory(server: self, address: address, me: me, httpBase: httpBase)
            cluster = directory
            try directory.start()
            log.notice("fleet: \(address), advertised as \(me), pages at \(httpBase)")
        }
        if let port = config.agonesPort {
            let sdk = try AgonesSDK(loop: loop, port: port, log: log, problem: { [unowned self] in self.healthProblem },
                                    roomCount: { [unowned self] in self.rooms.count })
            agones = sdk
            try sdk.start()
        }
    }

    /// Shutdown: leases released and the Redis connection closed; Agones told after the drain.
    func stopFleet() {
        loopHealth?.close()
        cluster?.shutdown()
        agones?.shutdown()
    }

    /// `GET /healthz` (liveness) and the Agones health ping: why this server is not alive (nil: its loop
    /// keeps time). Redis plays no part: a Redis outage must not get the fleet's servers restarted.
    var healthProblem: String? {
        loopHealth?.problem
    }

    /// `GET /readyz` (readiness): why this server should get no new clients (nil: ready): shutting down or
    /// draining, the loop late, or, in a fleet, Redis not answering.
    var readinessProblem: String? {
        if shuttingDown { return "shutting down" }
        if let late = loopHealth?.problem { return late }
        return cluster?.problem
    }

    /// Drops a loaded room without saving it (its lease belongs to another server now).
    func forget(_ room: Room) {
        rooms[room.name] = nil
        roomOrder = rooms.values.sorted { $0.name < $1.name }
        metrics.roomsUnloaded += 1
    }

    /// The join of `GET /ws?room=NAME` when NAME needs the directory: asked after the welcome (which says
    /// `main`), then the room's scene, state and ack follow, or a `redirect`, or the join's error.
    func joinFleetRoom(_ name: String, session: ClientSession) {
        guard let cluster else { return }
        let join: () -> Void = { [unowned self, unowned session] in
            switch self.planJoin(name, scene: nil, roomToken: nil, for: session) {
            case .failure(let error): session.reply(.error(error))
            case .success(let plan): self.performJoin(plan, session: session, id: nil, extraAck: [])
            }
            session.flushReplies()
        }
        cluster.mustClaim(name) ? cluster.claim(name, for: session, id: nil, proceed: join) : join()
    }
}
