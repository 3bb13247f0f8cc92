/// A parsed JSON document. Objects keep their members in wire order (so encoders can reproduce it and
/// `ack` result fields stay in the order the server wrote them); equality compares members in order.
///
/// Numbers are finite `Double`s: `JSONParser` never produces NaN, infinity or negative zero.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return JSONValue.membersEqual(a, b)
        default: return false
        }
    }

    /// Compares two member lists key by key and value by value, in order.
    public static func membersEqual(_ a: [(String, JSONValue)], _ b: [(String, JSONValue)]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x.0 != y.0 || x.1 != y.1 { return false }
        return true
    }

    /// The value of the first member named `key` when this is an object; nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        for (name, value) in members where name == key { return value }
        return nil
    }

    /// The number when this is a number.
    public var number: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    /// The string when this is a string.
    public var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The boolean when this is a boolean.
    public var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// The elements when this is an array.
    public var array: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// A short name of the JSON type, for error messages ("a string", "an array", ...).
    var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
