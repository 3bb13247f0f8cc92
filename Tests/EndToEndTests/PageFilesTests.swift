import Foundation
import Testing

extension EndToEnd {
    /// The page's files (the package's web/ folder, embedded into dynserver at build time; docs/PROTOCOL.md,
    /// HTTP): what a real server serves is byte for byte what is on disk, everything index.html loads is
    /// served, and every script passes a real JavaScript parser (`node --check`).
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct PageFilesTests {
        /// The package's web/ folder, found from this file's place in the tree.
        static let webFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("web")

        static func webFiles() throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: webFolder, includingPropertiesForKeys: nil)
                .filter { !$0.lastPathComponent.hasPrefix(".") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }

        @Test func everyFileIsServedByteForByteAsOnDisk() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let port = try #require(server.httpPort)
            let files = try Self.webFiles()
            #expect(files.map(\.lastPathComponent).contains("index.html") && files.count >= 3)
            for file in files {
                let onDisk = [UInt8](try Data(contentsOf: file))
                let reply = try #require(try HTTPReply.get(port: port, "/web/" + file.lastPathComponent))
                #expect(reply.status == 200, "\(file.lastPathComponent)")
                #expect(Array(reply.body.utf8) == onDisk, "\(file.lastPathComponent) served as on disk")
                #expect(Int(reply.headers["content-length"] ?? "") == onDisk.count)
            }
            let index = [UInt8](try Data(contentsOf: Self.webFolder.appendingPathComponent("index.html")))
            for path in ["/", "/index.html", "/r/lab"] {
                let reply = try #require(try HTTPReply.get(port: port, path))
                #expect(reply.status == 200 && Array(reply.body.utf8) == index, "\(path) is web/index.html")
            }
            #expect(try HTTPReply.get(port: port, "/web/missing.js")?.status == 404)
            #expect(try HTTPReply.get(port: port, "/web/../Package.swift")?.status == 404)
            withExtendedLifetime(server) {}
        }

        @Test func everythingThePageLoadsIsServed() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let port = try #require(server.httpPort)
            let index = try String(contentsOf: Self.webFolder.appendingPathComponent("index.html"), encoding: .utf8)
            let references = index.matches(of: /(?:src|href)="([^"]+)"/).map { String($0.output.1) }
            #expect(references.filter { $0.hasPrefix("/web/") && $0.hasSuffix(".js") }.count >= 5)
            #expect(references.contains("/web/style.css"))
            for reference in references {
                #expect(reference.hasPrefix("/"), "\(reference): from this server, never from elsewhere")
                let reply = try #require(try HTTPReply.get(port: port, reference))
                #expect(reply.status == 200, "\(reference)")
                if reference.hasSuffix(".js") { #expect(reply.headers["content-type"]?.hasPrefix("text/javascript") == true) }
                if reference.hasSuffix(".css") { #expect(reply.headers["content-type"]?.hasPrefix("text/css") == true) }
            }
            let scenes = try #require(try HTTPReply.get(port: port, "/scenes.json"))
            let names = try JSONSerialization.jsonObject(with: Data(scenes.body.utf8)) as? [String]
            #expect(names?.first == "default" && names?.contains("collision") == true && (names?.count ?? 0) >= 10)
            withExtendedLifetime(server) {}
        }

        @Test(RequiredTool.node.trait)
        func everyScriptPassesNodeCheck() throws {
            let node = try RequiredTool.node.require()
            let scripts = try Self.webFiles().filter { $0.pathExtension == "js" }
            #expect(scripts.count >= 5)
            for script in scripts {
                let run = try ExternalTool.run(node, ["--check", script.path], timeout: 30)
                #expect(run.status == 0, "node --check \(script.lastPathComponent): \(run.output)")
            }
            // The check can fail: a script with a syntax error is refused.
            let broken = FileManager.default.temporaryDirectory.appendingPathComponent("dyn-broken-\(ProcessInfo.processInfo.processIdentifier).js")
            try Data("\"use strict\";\nfunction (\n".utf8).write(to: broken)
            defer { try? FileManager.default.removeItem(at: broken) }
            #expect(try ExternalTool.run(node, ["--check", broken.path], timeout: 30).status != 0)
        }
    }
}
