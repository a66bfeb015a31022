import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// README's Swift examples compile as a program outside this package does: `swiftc -typecheck`
/// against the library modules of the build, without the package's name, so `package`
/// declarations are out of reach and only the products' `public` API is used.
@Suite(.offPool) struct LibraryUseTests {
    @Test func readmeExamplesTypeCheckAgainstThePublicAPI() async throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = Self.swiftBlocks(in: readme)
        #expect(examples.count == 2, "README's \"Use the core from Swift\" has the DispatcherCore and the Catalog example")
        #expect(examples.contains { $0.contains("import Catalog") } && examples.contains { $0.contains("import DispatcherCore") })
        for example in examples {
            guard let result = try await Self.typeCheck(example) else { return }
            #expect(result.status == 0, "\(result.errors)\n\(example)")
            #expect(!result.errors.contains("warning"), "\(result.errors)")
        }
    }

    /// The check sees only `public`: a program reaching for what the modules share among
    /// themselves (`package`) does not compile.
    @Test func packageDeclarationsAreOutOfReach() async throws {
        let uses = [
            ("import Catalog\n_ = RuntimeValues.self", "RuntimeValues"),
            ("import DispatcherCore\n_ = SecretRegistry.self", "SecretRegistry"),
            ("import DispatcherCore\n_ = Redactor.standard.text(\"x\")", "text"),
            ("import Sessions\n_ = CallOutcome.self", "CallOutcome"),
        ]
        for (source, name) in uses {
            guard let outside = try await Self.typeCheck(source) else { return }
            #expect(outside.status != 0, "\(name) is package, yet an outside program compiled with it")
            #expect(outside.errors.contains("'\(name)'"), "\(outside.errors)")
        }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bodies of the ```swift blocks of a Markdown text.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// `swiftc -typecheck` of `source` as a top-level program, with the build's modules and the
    /// module maps of the C modules they import; nil (skipped, said why) without a compiler or a build.
    static func typeCheck(_ source: String) async throws -> (status: Int32, errors: String)? {
        let debug = BuiltProducts.executable(named: "apiexplorer").deletingLastPathComponent()
        let modules = debug.appendingPathComponent("Modules")
        let compiler = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let compiler, FileManager.default.fileExists(atPath: modules.appendingPathComponent("Catalog.swiftmodule").path) else {
            print("skipped: no swiftc or no Catalog.swiftmodule in \(modules.path)")
            return nil
        }
        // SwiftPM's own C targets' maps (`X.build/module.modulemap`), the dependencies' and ours;
        // not a build plugin's host copy (`X-tool.build`, grpc-swift-protobuf's), which names the same module.
        var maps = ((try? FileManager.default.contentsOfDirectory(atPath: debug.path)) ?? [])
            .filter { !$0.hasSuffix("-tool.build") }
            .map { debug.appendingPathComponent($0).appendingPathComponent("module.modulemap") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        for folder in [debug.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts"), packageRoot.appendingPathComponent("Sources")] {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                if file.lastPathComponent == "module.modulemap" { maps.append(file) }
            }
        }
        let folder = try TemporaryDirectory()
        try folder.write("main.swift", source)
        let arguments = ["-typecheck", "-swift-version", "6", "-I", modules.path] + maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
            + [folder.url.appendingPathComponent("main.swift").path]
        let result = await (try ChildProcess(compiler, arguments, environment: ProcessInfo.processInfo.environment, directory: folder.path)).finish()
        return (result.status, result.errors)
    }
}
