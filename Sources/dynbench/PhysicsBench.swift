import ArgumentParser

struct PhysicsBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "physics")
    func run() throws { throw ValidationError("not built yet") }
}
