import Dynamics
import NetProtocol

/// `field` and `unfield` (docs/PROTOCOL.md).
extension SharedWorld {
    func addField(kind: FieldKindName, _ parameters: FieldParameters) throws(ProtocolError) -> AckFields {
        throw ProtocolError(.badValue, "fields are not available yet")
    }

    func updateField(_ id: Int, _ parameters: FieldParameters) throws(ProtocolError) -> AckFields {
        throw ProtocolError(.badValue, "field \"field\": no field with id \(id)")
    }

    func removeField(_ id: Int) throws(ProtocolError) -> AckFields {
        throw ProtocolError(.badValue, "field \"field\": no field with id \(id)")
    }

    var fieldInfos: [FieldInfo] { [] }
}
