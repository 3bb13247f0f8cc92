/// The `?` overlay (page 1: keys and mouse, page 2: the `:` commands) and the hint bar. Every line fits
/// 36 columns, so that two columns fit an 80-column terminal. The README lists the same.
enum HelpText {
    static let keys = [
        "click        tap toward the point",
        "drag item    drag it; release flings",
        "right click  snap selection there",
        "Tab S-Tab    select next / previous",
        "arrows HJKL  move cursor (HJKL: 5x)",
        "Enter t      tap at the cursor",
        "d            drag at cursor on/off",
        "s            snap selection to cursor",
        "1-9 0        load a scene (below)",
        "r            reload the scene",
        "c            cycle collision mode",
        "g            turn gravity 90 deg",
        "n            spawn a box at cursor",
        "x            remove the selection",
        "e            edit selection's props",
        "f            field at cursor (kind+)",
        "p            hold / resume the world",
        ".            step one tick (held)",
        "k            contact flashes on/off",
        "press o, G.. move anchor / field",
        ":            command line (Tab, Up)",
        "Esc          end drag / close line",
        "?            help (again: commands)",
        "q Ctrl-C     quit",
    ]

    /// The `:` commands, one short form each (full forms: docs/PROTOCOL.md, "Short syntax").
    static let commands = [
        "scene NAME",
        "collision items|boundaries|everything",
        "gravity ANGLE MAG | xy DX DY | MAG",
        "spawn rect|ellipse W H [X Y] [P=V..]",
        "remove [ID]",
        "set [ID] PROP VALUE [PROP VALUE..]",
        "tap X Y [mode] [body=ID]",
        "push [ID] ANGLE MAG [mode] | dx= dy=",
        "drag begin|move X Y | drag end",
        "snap [ID] X Y [damping=D] | [ID] off",
        "velocity [ID] VX VY [av=] [add=]",
        "attach [ID] X Y | to=ID2 [kind=..]",
        "anchor ATTACHMENT X Y",
        "detach ATTACHMENT",
        "field KIND X Y [opts] | FIELD [X Y]",
        "unfield FIELD",
        "boundary NAME X,Y X,Y.. [closed]",
        "bounds on|off [insets=T,L,B,R]",
        "group ID ID [ID..] / ungroup GROUP",
        "pause / resume / step [TICKS]",
        "wait MS (headless scripts only)",
        "subscribe contacts= notices= snaps..",
        "hello [NAME] [token=T]",
        "join ROOM [SCENE] / rooms",
        "hash / checkpoint NAME / restore NAME",
        "ping",
    ]

    static let commandsFooter = ["ID: the selection when left out; angles in radians or 90deg;",
                                 "any line may end in id=NAME. ? again closes."]

    static var sceneLines: [String] {
        let entries = SceneCatalog.names.enumerated().map { entry in
            entry.offset < 10 ? "\(entry.offset == 9 ? 0 : entry.offset + 1) \(entry.element)" : ":" + entry.element
        }
        let half = (entries.count + 1) / 2
        return ["scenes: " + entries[..<half].joined(separator: "  "), "        " + entries[half...].joined(separator: "  ")]
    }

    /// At most 79 columns, so that it shows whole on an 80-column terminal.
    static let hint = "?help :cmd 1-9 scene c collide n spawn x del e edit f field p hold .step q quit"

    /// Where a browser shows the same world: the HTTP port the server's `welcome` says it bound (`http_port`,
    /// docs/PROTOCOL.md, welcome; nil when it has no HTTP listener, then there is no page to name), on the host
    /// this client connected to; a room other than `main` has its own path.
    static func pageURL(host: String, httpPort: Int?, room: String? = nil) -> String? {
        guard let httpPort else { return nil }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let path = room.map { $0 == "main" ? "/" : "/r/\($0)" } ?? "/"
        return "http://\(shownHost):\(httpPort)\(path)"
    }

    /// The lines of help page `page` (1 or 2), laid out in two columns when `columns` allows: the title, the
    /// page's URL (when known, so that it shows on a short terminal too), the keys or commands, and on page 1
    /// the scene's caption (word-wrapped).
    static func page(_ page: Int, columns: Int, caption: String? = nil, pageURL: String? = nil) -> [String] {
        let title = page == 1 ? "dynclient - keys and mouse (? again: commands)" : "dynclient - : commands"
        let body = page == 1 ? keys : commands
        var lines = [title] + (pageURL.map { ["in a browser: \($0)"] } ?? []) + [""]
        lines += twoColumns(body, width: columns)
        lines += page == 1 ? [""] + sceneLines : [""] + commandsFooter
        if page == 1, let caption { lines += [""] + InfoRows.wrap(caption, width: min(76, max(20, columns - 4))) }
        return lines
    }

    private static func twoColumns(_ items: [String], width: Int) -> [String] {
        let longest = items.map(\.count).max() ?? 0
        let columnWidth = longest + 2
        guard columnWidth + longest + 4 <= width else { return items }
        let half = (items.count + 1) / 2
        return (0..<half).map { row in
            items[row].padding(to: columnWidth) + (row + half < items.count ? items[row + half] : "")
        }
    }
}
