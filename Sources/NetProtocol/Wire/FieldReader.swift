/// Typed, validated access to the members of a decoded message object, producing the exact docs/PROTOCOL.md
/// error for each failure: a missing or mistyped field is `bad_message`, a well-typed value out of its
/// range is `bad_value`. Every message names the field.
struct FieldReader {
    /// Longest string accepted in any field, in UTF-8 bytes.
    static let maxStringBytes = 256
    /// Largest item width or height, in points.
    static let maxSize = 100_000.0
    /// Largest body id accepted: the integers a `Double` represents exactly.
    static let maxBodyID = 9_007_199_254_740_991.0

    let members: [(String, JSONValue)]

    func value(_ key: String) -> JSONValue? {
        for (name, value) in members where name == key { return value }
        return nil
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    // MARK: - Numbers

    func number(_ key: String) throws(ProtocolError) -> Double {
        guard let value = try optionalNumber(key) else { throw missing(key) }
        return value
    }

    func optionalNumber(_ key: String) throws(ProtocolError) -> Double? {
        guard let raw = value(key) else { return nil }
        guard case let .number(number) = raw else { throw mistyped(key, "a number", raw) }
        guard number.isFinite else { throw invalid(key, "must be a finite number") }
        return number
    }

    func body(_ key: String = "body") throws(ProtocolError) -> Int {
        guard let id = try optionalBody(key) else { throw missing(key) }
        return id
    }

    func optionalBody(_ key: String = "body") throws(ProtocolError) -> Int? {
        guard let number = try optionalNumber(key) else { return nil }
        guard number >= 1, number <= FieldReader.maxBodyID, number == number.rounded() else {
            throw invalid(key, "must be a positive integer body id")
        }
        return Int(number)
    }

    func optionalInteger(_ key: String) throws(ProtocolError) -> Int? {
        guard let number = try optionalNumber(key) else { return nil }
        guard number.magnitude <= FieldReader.maxBodyID, number == number.rounded() else {
            throw invalid(key, "must be an integer")
        }
        return Int(number)
    }

    /// A width or height: > 0 and <= 100 000 points.
    func size(_ key: String) throws(ProtocolError) -> Double {
        let value = try number(key)
        guard value > 0, value <= FieldReader.maxSize else { throw invalid(key, "must be > 0 and <= 100000") }
        return value
    }

    /// A fraction in 0...1 (elasticity, friction, damping).
    func optionalUnit(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = try optionalNumber(key) else { return nil }
        guard value >= 0, value <= 1 else { throw invalid(key, "must be between 0 and 1") }
        return value
    }

    // MARK: - Other types

    func string(_ key: String) throws(ProtocolError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let raw = value(key) else { return nil }
        guard case let .string(text) = raw else { throw mistyped(key, "a string", raw) }
        guard text.utf8.count <= FieldReader.maxStringBytes else {
            throw invalid(key, "must be at most \(FieldReader.maxStringBytes) bytes long")
        }
        return text
    }

    func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let raw = value(key) else { return nil }
        guard case let .bool(flag) = raw else { throw mistyped(key, "a boolean", raw) }
        return flag
    }

    /// A string naming one case of `E`; another string is `bad_value` listing the accepted names.
    func optionalName<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type) throws(ProtocolError) -> E?
    where E.RawValue == String {
        guard let text = try optionalString(key) else { return nil }
        guard let named = E(rawValue: text) else {
            let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw invalid(key, "must be one of \(names)")
        }
        return named
    }

    func name<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type) throws(ProtocolError) -> E
    where E.RawValue == String {
        guard let named = try optionalName(key, as: type) else { throw missing(key) }
        return named
    }

    /// An object `{"x":..,"y":..}`.
    func optionalPoint(_ key: String) throws(ProtocolError) -> Point? {
        guard let raw = value(key) else { return nil }
        guard case let .object(members) = raw else { throw mistyped(key, "an object {\"x\",\"y\"}", raw) }
        let inner = FieldReader(members: members)
        do throws(ProtocolError) {
            return Point(try inner.number("x"), try inner.number("y"))
        } catch {
            throw ProtocolError(error.code, "in field \(quoted(key)): \(error.message)")
        }
    }

    /// A polygon's points: an array of 3...64 `[x, y]` pairs.
    func polygonPoints(_ key: String) throws(ProtocolError) -> [Point] {
        guard let raw = value(key) else { throw missing(key) }
        guard case let .array(elements) = raw else { throw mistyped(key, "an array of [x, y] pairs", raw) }
        guard (3...64).contains(elements.count) else { throw invalid(key, "must have 3 to 64 points") }
        var points: [Point] = []
        points.reserveCapacity(elements.count)
        for element in elements {
            guard case let .array(pair) = element, pair.count == 2,
                  case let .number(x) = pair[0], case let .number(y) = pair[1] else {
                throw ProtocolError(.badMessage, "field \(quoted(key)) must be an array of [x, y] number pairs")
            }
            points.append(Point(x, y))
        }
        return points
    }

    // MARK: - Errors

    func missing(_ key: String) -> ProtocolError {
        ProtocolError(.badMessage, "missing field \(quoted(key))")
    }

    func mistyped(_ key: String, _ expected: String, _ actual: JSONValue) -> ProtocolError {
        ProtocolError(.badMessage, "field \(quoted(key)) must be \(expected), not \(actual.typeDescription)")
    }

    func invalid(_ key: String, _ rule: String) -> ProtocolError {
        ProtocolError(.badValue, "field \(quoted(key)) \(rule)")
    }
}
