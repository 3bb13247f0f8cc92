import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import NetProtocol
import NetLoop

/// `dynclient`: the terminal client of README.md. Interactive when stdin and stdout are terminals and
/// `--headless` is not given; headless (JSON lines out, commands in) otherwise.
@main
struct DynClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynclient",
        abstract: "Watch and play with a shared dyn world in the terminal.",
        discussion: "Headless input lines (and the : command line): \(ShortCommand.usage)",
        version: DynVersion.line("dynclient"))

    @Option(help: "Server address (an IP literal or localhost).")
    var host = "127.0.0.1"

    @Option(help: "Server port.")
    var port = 7700

    @Option(help: "Name shown next to your drags (default: $USER).")
    var name: String?

    @Option(help: "Token for a server started with --token (or --admin-token).")
    var token: String?

    @Option(help: "Room to join (created when it does not exist); default main.")
    var room: String?

    @Flag(help: "Print server messages as JSON lines and send stdin lines as commands.")
    var headless = false

    @Option(help: "Headless: milliseconds to stay once stdin has ended and the server answered everything sent.")
    var linger: UInt64 = 500

    @Flag(help: "Exit with status 1 when the server goes away instead of reconnecting.")
    var noReconnect = false

    @Flag(help: "Headless: keep printing server messages after stdin ends, until the server closes or SIGINT.")
    var follow = false

    @Option(help: "Which world state to receive: full, compact, packed or none (sends subscribe). Headless, packed frames are printed decoded, as snapshot lines.")
    var snapshots: Subscription.Snapshots?

    @Flag(help: "Receive contact events (sends subscribe).")
    var contacts = false

    /// The `subscribe` object the `hello` carries, when a flag asks for one.
    var subscription: SubscriptionChange? {
        guard snapshots != nil || contacts else { return nil }
        return SubscriptionChange(contacts: contacts ? true : nil, snapshots: snapshots)
    }

    /// The terminal view takes packed frames unless `--snapshots` says otherwise, with `--contacts` too.
    static func interactiveSubscription(_ flags: SubscriptionChange?) -> SubscriptionChange {
        var change = flags ?? SubscriptionChange()
        if change.snapshots == nil { change.snapshots = .packed }
        return change
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        Self.unblockHandledSignals()
        let address: SocketAddress
        do {
            address = try SocketAddress(host: host, port: port)
        } catch {
            throw ValidationError("cannot use \(host):\(port): \(error.message)")
        }
        let loop = try EventLoop()
        let environment = Self.environment()
        let interactive = !(headless || !isTerminal(0) || !isTerminal(1))
        if let notice = Self.headlessNotice(asked: headless, stdin: isTerminal(0), stdout: isTerminal(1), stderr: isTerminal(2)) {
            FDWriter.writeAll(2, Array((notice + "\n").utf8))
        }
        let clientName = name ?? environment["USER"] ?? "dynclient"
        // The terminal view takes packed frames; headless output stays full snapshots, line for line.
        let link = ServerLink(loop: loop, address: address, name: clientName,
                              token: token, reconnects: !noReconnect, room: room,
                              subscribe: interactive ? Self.interactiveSubscription(subscription) : subscription)
        let code: Int32
        if !interactive {
            let app = HeadlessApp(loop: loop, link: link, lingerMs: linger, follow: follow)
            code = withExtendedLifetime(app) { app.run() }
        } else {
            let app = try InteractiveApp(loop: loop, link: link, colorMode: ColorMode.detect(environment: environment), name: clientName,
                                         contacts: contacts)
            code = withExtendedLifetime(app) { app.run() }
        }
        // Let close callbacks (and a headless flush) finish so the loop closes cleanly.
        loop.run()
        loop.closeAllHandles()
        _ = loop.close()
        if code != 0 { throw ExitCode(code) }
    }

    /// What to tell a person who did not ask for headless mode but gets it (`make run | tee log`: stdout is a
    /// pipe): said on stderr when that is a terminal, so a script's output stays clean; nil otherwise.
    static func headlessNotice(asked: Bool, stdin: Bool, stdout: Bool, stderr: Bool) -> String? {
        guard !asked, stderr, !(stdin && stdout) else { return nil }
        let why = !stdout ? "stdout is not a terminal" : "stdin is not a terminal"
        return "dynclient: \(why), so this is the headless client (JSON lines out, commands in on stdin), not the terminal view; "
            + "run it without a pipe for the terminal view, or give --headless to say you mean it"
    }

    /// A parent may start us with signals blocked (Foundation's `Process` passes on its thread's mask, in
    /// which nearly everything is blocked). The terminal is restored on these signals, so they must arrive.
    static func unblockHandledSignals() {
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH] + TerminalRestore.crashSignals {
            sigaddset(&handled, signal)
        }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
    }

    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return result
    }
}

extension Subscription.Snapshots: ExpressibleByArgument {}
