import NetProtocol
import Testing

/// `redirect` (docs/PROTOCOL.md, A fleet of servers): the documented shape, and back.
@Test(.timeLimit(.minutes(1))) func redirectHasTheDocumentedShapeAndRoundTrips() {
    let redirect = ServerMessage.redirect(Redirect(room: "lab", host: "10.0.0.5", port: 7700,
                                                   http: "http://10.0.0.5:7701/r/lab", id: .number("1")))
    let line = String(decoding: redirect.encoded(), as: UTF8.self)
    #expect(line == #"{"type":"redirect","room":"lab","host":"10.0.0.5","port":7700,"http":"http://10.0.0.5:7701/r/lab","id":1}"# + "\n")
    #expect(ServerMessage.decode(String(line.dropLast())) == redirect)
    let withoutID = ServerMessage.redirect(Redirect(room: "a.b", host: "::1", port: 1, http: "http://[::1]:2/r/a.b"))
    #expect(ServerMessage.decode(String(decoding: withoutID.encoded().dropLast(), as: UTF8.self)) == withoutID)
    #expect(ServerMessage.decode(#"{"type":"redirect","room":"lab","host":"h","http":"x"}"#) == nil, "a redirect needs its port")
}
