import ArgumentParser

struct CodecBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "codec")
    func run() throws { throw ValidationError("not built yet") }
}
