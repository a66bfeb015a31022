import Catalog
@testable import CatalogAuthoring
import CatalogTestSupport
import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `export swift`: the generated TargetType enum and Environment values type-check against the
/// DispatcherCore module this build made.
@Suite(.offPool) struct SwiftExportTests {
    @Test func generatedClientTypeChecks() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("shop.yaml", OpenAPIExportTests.catalog + """

              search:
                path: /search/{{query}}
                query: { "DateCreated<": "{{DateCreated<}}", q: "\\\\(not interpolated) é" }
                headers: { X-Key: "{{secret.SHOP_KEY}}" }
                parameters: { query: lamps, "DateCreated<": "2024-01-01" }
                body: "{{query}} as text, \\b\\f\\x01 and \\\\u0041 kept"
            """)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let source = SwiftExporter.source(try #require(catalog.service("shop")))
        #expect(source.contains("enum Shop: TargetType {"))
        #expect(source.contains(#"case getItem(itemId: String = "7", trace: String = "t-1")"#))
        #expect(source.contains(#"case .getItem(let itemId, _): ["itemId": itemId]"#))
        #expect(source.contains(#"ProcessInfo.processInfo.environment["SHOP_KEY"]"#))
        #expect(!source.contains("secretDefaults") && !source.contains(#""t": "#), "no secret value is written")

        let modules = BuiltProducts.executable(named: "apiexplorer").deletingLastPathComponent().appendingPathComponent("Modules")
        let compiler = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let compiler, FileManager.default.fileExists(atPath: modules.appendingPathComponent("DispatcherCore.swiftmodule").path) else {
            print("skipped: no swiftc or no DispatcherCore.swiftmodule in \(modules.path)")
            return
        }
        try folder.write("Client.swift", source + """

            func use() async throws {
                let dispatcher = Dispatcher<Shop>(environment: Shop.local)
                _ = try await dispatcher.request(.getItem())
                _ = try await dispatcher.request(.search(query: "chairs"))
            }
            """)
        let result = await (try ChildProcess(
            compiler, ["-typecheck", "-swift-version", "6", "-I", modules.path, folder.url.appendingPathComponent("Client.swift").path],
            environment: ProcessInfo.processInfo.environment, directory: folder.path)).finish()
        #expect(result.status == 0, "\(result.errors)\n\(source)")
        #expect(!result.errors.contains("warning"), "\(result.errors)")
    }

    @Test func stringLiteralsAreSwifts() {
        #expect(SwiftExporter.literal(#"say "hi" \ é"#) == #""say \"hi\" \\ é""#)
        #expect(SwiftExporter.literal("a\nb\rc\td") == #""a\nb\rc\td""#)
        // Swift has no \b or \f; other control characters are \u{00XX}.
        #expect(SwiftExporter.literal("\u{8}\u{C}\u{1}\u{1F}") == #""\u{0008}\u{000c}\u{0001}\u{001f}""#)
        // A backslash before `u0041` is text, not an escape.
        #expect(SwiftExporter.literal(#"\u0041"#) == #""\\u0041""#)
        #expect(SwiftExporter.literal("") == #""""#)
    }

    /// ExportedClientTests compiles the client generated from its catalog and sends it against
    /// `call`: the generated file there must be what `export swift` writes today
    /// (`UPDATE_DOCS=1` writes it again).
    @Test func exportedClientOfTheTestTargetIsCurrent() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("ExportedClientTests")
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.appendingPathComponent("Catalog"), displayPath: "Catalog"), trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let source = SwiftExporter.source(try #require(catalog.service("shop")))
        let file = folder.appendingPathComponent("ShopClient.generated.swift")
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" { try Data(source.utf8).write(to: file) }
        #expect(try String(contentsOf: file, encoding: .utf8) == source, "ShopClient.generated.swift is stale: UPDATE_DOCS=1 swift test --filter SwiftExportTests")
    }
}
