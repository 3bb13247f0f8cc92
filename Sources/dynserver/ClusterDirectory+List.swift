import DynRoom
import NetProtocol
import NetLoop

/// The fleet-wide room list and redirects (docs/DEPLOY.md, The list): `directory` is this server's copy of
/// `dyn:rooms`, kept up to date incrementally. Each round asks Redis only for the names changed since the
/// change number this copy is at (ClusterScripts.list), so a fleet at rest costs O(log rooms) per round;
/// the whole list is read on the first round, after every reconnect, and when Redis says the copy is too
/// old (its change log restarted or forgot removals this copy missed).
extension ClusterDirectory {
    /// The redirect to the owner named by a lease value (`HOST:PORT HTTP_BASE`).
    func redirect(_ room: String, ownerValue: String, id: MessageID?) -> Redirect? {
        let parts = ownerValue.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let colon = parts[0].lastIndex(of: ":"), let port = Int(parts[0][parts[0].index(after: colon)...]) else {
            return nil
        }
        var host = String(parts[0][..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return Redirect(room: room, host: host, port: port, http: "\(parts[1])/r/\(room)", id: id)
    }

    /// `GET /r/NAME` on a server that does not own NAME while another one does: the owner's page.
    func ownerPage(of name: String) -> String? {
        guard server.rooms[name] == nil, let entry = directory[name], let owner = entry.owner, owner != me,
              let http = entry.http else { return nil }
        return "\(http)/r/\(name)"
    }

    /// Asks for the list now when it is older than a second (someone is looking at it).
    func wantFreshList() {
        if redis.isUp, server.loop.nowMs &- lastListMs >= 1000 { refresh() }
    }

    /// One round of the list: the changes since `listSeq` (or everything), applied to `directory`.
    func refresh() {
        lastListMs = server.loop.nowMs
        let keys = [ClusterScripts.roomsKey, ClusterScripts.untilKey] + ClusterScripts.changeKeys
            + [ClusterScripts.clockKey, ClusterScripts.resumedKey]
        eval(ClusterScripts.list, keys: keys,
             [String(listSeq), listGen, seenRedis ? "1" : "0", String(Self.redisGapMs), leaseArgument]) { [weak self] reply in
            guard let self, case .array(let flat)? = reply, flat.count >= 4, let gen = flat[1].text,
                  let seq = flat[2].text.flatMap({ Int($0) }) else { return }
            let full = flat[3].text == "1"
            if full { self.directory.removeAll() }
            var i = 4
            while i + 1 < flat.count {
                if let name = flat[i].text {
                    let entry = flat[i + 1].text.flatMap { ClusterScripts.decodeEntry(name: name, $0) }
                    self.directory[name] = entry.map { entry in
                        let parts = entry.owner.split(separator: " ", maxSplits: 1)
                        return FleetRoom(summary: entry.summary, owner: parts.first.map(String.init),
                                         http: parts.count == 2 ? String(parts[1]) : nil)
                    }
                }
                i += 2
            }
            self.listSeq = seq
            self.listGen = gen
            self.server.metrics.fleetListRounds += 1
            self.server.metrics.fleetListEntries += UInt64((flat.count - 4) / 2)
            if full { self.server.metrics.fleetListFullReads += 1 }
        }
    }

    /// `rooms` and `GET /rooms` in a fleet: this server's rooms (its `main` included) and every other live
    /// room of the directory with its owner, sorted by name.
    func summaries(local: [RoomSummary]) -> [RoomSummary] {
        wantFreshList()
        var byName: [String: RoomSummary] = [:]
        for (name, entry) in directory where entry.owner != me {
            var summary = entry.summary
            summary.owner = entry.owner
            summary.loaded = true
            byName[name] = summary
        }
        for var summary in local where summary.loaded || byName[summary.name] == nil {
            if summary.loaded { summary.owner = me }
            byName[summary.name] = summary
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}
