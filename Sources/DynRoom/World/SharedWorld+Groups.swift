import Dynamics
import NetProtocol

/// `group` and `ungroup` (docs/PROTOCOL.md): the animator's item groups, addressed by their behavior ids.
extension SharedWorld {
    package func group(_ bodies: [Int]) throws(ProtocolError) -> AckFields {
        for body in bodies { try requireBody(body) }
        for body in bodies {
            if let existing = animator.group(of: body) {
                throw ProtocolError(.badValue, "field \"bodies\": body \(body) is already in group \(existing)")
            }
        }
        do {
            let id = try animator.add(ItemGroupBehavior(items: bodies))
            structureChanged = true
            return [("group", .number(Double(id)))]
        } catch {
            throw ProtocolError(.badValue, "group rejected: \(error.protocolWords)")
        }
    }

    package func ungroup(_ id: Int) throws(ProtocolError) -> AckFields {
        guard animator.removeGroup(id) else { throw ProtocolError(.badValue, "field \"group\": no group with id \(id)") }
        structureChanged = true
        return [("group", .number(Double(id)))]
    }

    package var groupInfos: [GroupInfo] {
        animator.groupIDs.compactMap { id in animator.groupItems(id).map { GroupInfo(id: id, bodies: $0) } }
    }
}
