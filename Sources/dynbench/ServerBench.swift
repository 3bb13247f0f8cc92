import ArgumentParser

struct ServerBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "server")
    func run() throws { throw ValidationError("not built yet") }
}
