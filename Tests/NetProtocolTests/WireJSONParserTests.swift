import Testing
@testable import NetProtocol

/// Parses bytes and returns the value, or the error code on failure.
private func parse(_ bytes: [UInt8], maxDepth: Int = 32) -> Result<JSONValue, ProtocolError> {
    do throws(ProtocolError) { return .success(try JSONParser.parse(bytes, maxDepth: maxDepth)) } catch { return .failure(error) }
}

private func parse(_ text: String) -> Result<JSONValue, ProtocolError> { parse(Array(text.utf8)) }

private func code(_ result: Result<JSONValue, ProtocolError>) -> ErrorCode? {
    if case let .failure(error) = result { return error.code }
    return nil
}

private func number(_ text: String) -> Double? {
    if case let .success(.number(value)) = parse(text) { return value }
    return nil
}

@Test(.timeLimit(.minutes(3))) func parserKeepsObjectMemberOrderAndTypes() throws {
    let value = try parse(#" { "b" : [1, true, null, "s"], "a" : {"x": -2.5} } "#).get()
    #expect(value == .object([
        ("b", .array([.number(1), .bool(true), .null, .string("s")])),
        ("a", .object([("x", .number(-2.5))])),
    ]))
    #expect(value != .object([("a", .object([("x", .number(-2.5))])), ("b", .array([]))]))
}

@Test(.timeLimit(.minutes(3))) func parserRejectsInvalidUTF8AsBadJSON() {
    let quote = UInt8(ascii: "\"")
    let invalidSequences: [[UInt8]] = [
        [0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
    ]
    for sequence in invalidSequences {
        #expect(code(parse([quote] + sequence + [quote])) == .badJSON)
    }
    #expect(code(parse([0xFF])) == .badJSON)
    #expect((try? parse([quote, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, quote]).get()) == .string("€😀"))
}

@Test(.timeLimit(.minutes(3))) func parserRejectsNULBytesAsBadJSON() {
    #expect(code(parse(Array("\"a".utf8) + [0] + Array("b\"".utf8))) == .badJSON)
    #expect(code(parse(Array("{}".utf8) + [0])) == .badJSON)
    #expect(code(parse([0] + Array("{}".utf8))) == .badJSON)
}

@Test(.timeLimit(.minutes(3))) func parserRejectsRawControlCharactersInStrings() {
    #expect(code(parse("\"a\tb\"")) == .badJSON)
    #expect(code(parse("\"a\nb\"")) == .badJSON)
}

@Test(.timeLimit(.minutes(3))) func parserFailsTenThousandDeepNestingAtMaxDepth() {
    let deepArrays = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(code(parse(deepArrays)) == .badJSON)
    let deepObjects = String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
    #expect(code(parse(deepObjects)) == .badJSON)
    let depth32 = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    let depth33 = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    #expect(code(parse(depth32)) == nil)
    #expect(code(parse(depth33)) == .badJSON)
}

@Test(.timeLimit(.minutes(3))) func parserAnswersOverflowingNumbersWithBadValue() {
    #expect(code(parse("1e999")) == .badValue)
    #expect(code(parse("-1e999")) == .badValue)
    #expect(code(parse("[1.8e308]")) == .badValue)
    #expect(code(parse("{\"x\":" + String(repeating: "9", count: 400) + "}")) == .badValue)
    #expect(number("1.7976931348623157e308") == Double.greatestFiniteMagnitude)
}

@Test(.timeLimit(.minutes(3))) func parserAnswersNonFiniteLiteralsWithBadValue() {
    #expect(code(parse("{\"x\":NaN}")) == .badValue)
    #expect(code(parse("[Infinity]")) == .badValue)
    #expect(code(parse("-Infinity")) == .badValue)
    #expect(code(parse("[Inf]")) == .badJSON)
}

@Test(.timeLimit(.minutes(3))) func parserUnderflowsToZeroAndDropsTheSignOfZero() {
    #expect(number("1e-400") == 0)
    #expect(number("-0")?.sign == .plus)
    #expect(number("-0.0e5")?.sign == .plus)
    #expect(number("-1e-400")?.sign == .plus)
    #expect(number("5e-324") == Double.leastNonzeroMagnitude)
}

@Test(.timeLimit(.minutes(3))) func parserConvertsNumbersWithCorrectRounding() {
    #expect(number("0.1") == 0.1)
    #expect(number("-12.5e-1") == -1.25)
    #expect(number("1E+2") == 100)
    #expect(number("123456789012345678901234567890") == 1.2345678901234568e29)
    #expect(number("9007199254740993") == 9_007_199_254_740_992)
    #expect(number("2.2250738585072014e-308") == 2.2250738585072014e-308)
    #expect(number("0.000001234") == 0.000001234)
    #expect(number("3.141592653589793238462643383279") == Double.pi)
}

@Test(.timeLimit(.minutes(3))) func parserRejectsMalformedNumbers() {
    for text in ["01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1.e5", "--1", "1_000"] {
        #expect(code(parse(text)) == .badJSON, "\(text)")
    }
}

@Test(.timeLimit(.minutes(3))) func parserRejectsDuplicateKeysWithBadMessage() {
    let result = parse(#"{"x":1,"y":2,"x":3}"#)
    #expect(code(result) == .badMessage)
    if case let .failure(error) = result { #expect(error.message == "duplicate key \"x\"") }
    let wide = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}"
    #expect(code(parse(wide)) == .badMessage)
    #expect(code(parse(#"{"a":{"x":1},"b":{"x":2}}"#)) == nil)
}

@Test(.timeLimit(.minutes(3))) func parserAcceptsHugeArrays() throws {
    let text = "[" + Array(repeating: "1.5", count: 100_000).joined(separator: ",") + "]"
    let value = try parse(text).get()
    #expect(value.array?.count == 100_000)
    #expect(value.array?.last == .number(1.5))
}

@Test(.timeLimit(.minutes(3))) func parserDecodesEscapesAndSurrogatePairs() throws {
    let value = try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u0000""#).get()
    #expect(value == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t\u{E9}\u{1F600}\u{0}"))
}

@Test(.timeLimit(.minutes(3))) func parserRejectsLoneSurrogatesAndBadEscapes() {
    for text in [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\x41""#, #""\u12g4""#, #""\u12""#] {
        #expect(code(parse(text)) == .badJSON, "\(text)")
    }
}

@Test(.timeLimit(.minutes(3))) func parserRejectsTrailingGarbageAndTruncation() {
    for text in ["{} {}", "{}x", "[1,]", "{\"a\":1,}", "{\"a\"}", "[1 2]", "\"abc", "{", "", "   ", "tru", "nul", "{'a':1}"] {
        #expect(code(parse(text)) == .badJSON, "\(text)")
    }
}
