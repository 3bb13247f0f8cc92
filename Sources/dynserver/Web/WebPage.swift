import DynRoom

/// The browser client: the files of the package's `web/` folder (index.html, style.css, one script per
/// concern), compiled into the binary by the EmbedWeb plugin and served as they are (docs/PROTOCOL.md,
/// "HTTP"): `GET /` and `GET /r/NAME` answer index.html, `GET /web/NAME` any file of the folder, and
/// `GET /scenes.json` the scene picker's names. No CDN, no build step beyond the embedding.
///
/// What the page guarantees to people: the world drawn on a canvas at the display's frame rate,
/// interpolated between compact frames, fitted to whatever screen it is on, from a phone to a wide screen,
/// with nothing drawn over it but the world's own marks; everything the terminal client can do with a
/// pointer and keys; the scene's caption; errors in words, shown once and cleared by the next success; a
/// dimmed world and a banner while disconnected; a name that sticks. For tests, `window.dyn` exposes the
/// page's state and `#status` carries it as `data-*` attributes.
///
/// Guarantees here: the bytes served are exactly the files' bytes; a name outside the folder is nil.
enum WebPage {
    /// The page itself (served for `/`, `/index.html` and `/r/NAME`).
    static var index: [UInt8] { EmbeddedWeb.files["index.html"] ?? [] }

    /// A file of web/ by its name, with its content type; nil when the folder has no such file.
    static func file(named name: Substring) -> (contentType: String, bytes: [UInt8])? {
        guard let bytes = EmbeddedWeb.files[String(name)] else { return nil }
        return (contentType(of: name), bytes)
    }

    /// The content type for a file name's extension.
    static func contentType(of name: Substring) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        if name.hasSuffix(".png") { return "image/png" }
        return "application/octet-stream"
    }

    /// The scene picker's entries, as a JSON array (`GET /scenes.json`).
    static var sceneNamesJSON: [UInt8] {
        Array(("[" + Scenes.names.map { "\"\($0)\"" }.joined(separator: ",") + "]").utf8)
    }
}
