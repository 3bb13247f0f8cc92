import Foundation
import PackagePlugin

/// The build-tool plugin that embeds the page's files (the package's `web/` folder) into `dynserver`, so
/// that the server stays one self-contained binary (docs/ARCHITECTURE.md, "The page").
///
/// Guarantees: every regular file directly in `web/` (hidden files aside) is an input of one build command,
/// so editing, adding or removing a file regenerates `EmbeddedWeb.swift` and nothing else in the target is
/// affected by the page; the generated file holds each file's bytes unchanged (see `EmbedWebTool`).
@main
struct EmbedWeb: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "web")
        let manager = FileManager.default
        let inputs = try manager.contentsOfDirectory(at: web, includingPropertiesForKeys: [.isRegularFileKey])
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedWeb.swift")
        return [
            .buildCommand(displayName: "Embedding web/ (\(inputs.count) files) into \(target.name)",
                          executable: try context.tool(named: "EmbedWebTool").url,
                          arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                          inputFiles: inputs,
                          outputFiles: [output]),
        ]
    }
}
