import DynRoom
/// The browser client served at `GET /` (and `GET /r/NAME`): one self-contained page (HTML, CSS and
/// JavaScript inline; no CDN, no build step) that joins the same world over `GET /ws` with the same commands
/// as any other client.
///
/// What it guarantees to people (docs/PROTOCOL.md, "HTTP"): the world drawn on a canvas at the display's
/// frame rate, interpolated between compact frames, fitted to whatever screen it is on, from a phone to a
/// wide screen, with nothing drawn over it but the world's own marks; everything the terminal client can do
/// with a pointer and keys (tap, drag and fling, snap, anchor and field handles, spawn, remove, the property
/// panel, collision mode, gravity, fields, hold and step, contacts, notices, rooms); the scene's caption;
/// errors in words, shown once and cleared by the next success; a dimmed world and a banner while
/// disconnected; a name that sticks. For tests, `window.dyn` exposes the page's state and `#status` carries
/// it as `data-*` attributes.
enum WebPage {
    /// The whole page, assembled once from its parts.
    static let html: String = PageHTML.document(style: PageStyle.css,
                                                script: PageScript.state + PageScript.connection + PageScript.drawing
                                                    + PageScript.input + PageScript.controls)

    /// The scene picker's entries, as a JSON array.
    static var sceneNamesJSON: String {
        "[" + Scenes.names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}

/// The namespace of the page's script parts (PageScript+*.swift), concatenated in declaration order into
/// one `<script>`: the state, the connection, the drawing, the pointer and keys, the controls.
enum PageScript {}
