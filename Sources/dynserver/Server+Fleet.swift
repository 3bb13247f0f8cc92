import DynRoom
import NetProtocol
import NetLoop

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
                                    roomCount: { [unowned self] in self.rooms.count }, capacity: config.maxRooms,
                                    members: { [unowned self] in self.memberCount })
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
        if draining { return "draining" }
        if let late = loopHealth?.problem { return late }
        return cluster?.problem
    }

    /// Whether the first SIGTERM drains instead of shutting down at once: in a fleet or under Agones, where
    /// an orchestrator sends it for scale-down and rolling updates (docs/DEPLOY.md, The drain).
    var drainsOnSigterm: Bool { config.cluster != nil || config.agonesPort != nil }

    /// Clients connected now: players, for the drain and for Agones' Allocated.
    var memberCount: Int { sessions.count }

    /// SIGTERM's drain: readiness says `draining`, no room is created, restored or claimed here, the rooms
    /// keep running until no client is left or `--drain-s` has passed; then the shutdown saves and releases
    /// every room and tells the clients still here `bye` with reason `draining`.
    func drain() {
        guard !draining, !shuttingDown else { return }
        draining = true
        log.notice("draining (SIGTERM): no new rooms; \(memberCount) clients, rooms run until they leave or \(config.drainS) s pass (--drain-s)")
        let started = loop.nowMs
        let limitMs = UInt64(config.drainS * 1000)
        guard let timer = try? UVTimer(loop: loop) else { return shutdown(reason: "SIGTERM") }
        drainTimer = timer
        try? timer.start(afterMs: 0, repeatMs: 100) { [unowned self] in
            let waited = self.loop.nowMs &- started
            if self.memberCount == 0 || waited >= limitMs {
                self.shutdown(reason: self.memberCount == 0 ? "SIGTERM, drained" : "SIGTERM, --drain-s passed")
            }
        }
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
