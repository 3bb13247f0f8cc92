import Dynamics
import NetProtocol

/// `group` and `ungroup` (docs/PROTOCOL.md).
extension SharedWorld {
    func group(_ bodies: [Int]) throws(ProtocolError) -> AckFields {
        for body in bodies { try requireBody(body) }
        throw ProtocolError(.badValue, "groups are not available yet")
    }

    func ungroup(_ id: Int) throws(ProtocolError) -> AckFields {
        throw ProtocolError(.badValue, "field \"group\": no group with id \(id)")
    }

    var groupInfos: [GroupInfo] { [] }
}
