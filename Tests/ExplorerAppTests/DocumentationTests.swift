import ExplorerApp
import Foundation
import Testing
import TestTraits

/// Documents generated from the keymap are never stale: README's key tables are the keymap's
/// Markdown, word for word. `scripts/generate-docs` rewrites them (`UPDATE_DOCS=1`).
@Suite(.offPool) struct DocumentationTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    static let begin = "<!-- keys: generated from Sources/ExplorerApp/Keymap.swift by scripts/generate-docs; a test fails when this is stale -->"
    static let end = "<!-- keys: end -->"

    @Test func readmeKeyTablesAreTheKeymap() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "README.md lost its key table markers")
        let finish = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let expected = "\n" + Keymap.markdown() + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try (text[..<start.upperBound] + expected + text[finish.lowerBound...]).write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[start.upperBound..<finish.lowerBound]) == expected, "README's keys are stale: run scripts/generate-docs")
    }

    static let writtenOutKeys = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ExplorerApp/Keymap+PlainText.generated.swift")

    /// `explore --help`'s keys are a constant (every process builds the command tree, so the
    /// keymap stays out of start-up): it is the keymap's plain text, word for word.
    @Test func exploreHelpKeysAreTheKeymap() throws {
        let text = Keymap.plainText()
        #expect(!text.contains("\"\"\"#") && !text.contains("\\#"), "the keys' text cannot be written as a raw string literal")
        let quotes = String(repeating: "\"", count: 3)
        let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n")
        let source = [
            "// Generated from Keymap.swift by scripts/generate-docs; DocumentationTests fail when it is stale.",
            "/// `explore --help`'s keys, written out from the keymap.",
            "extension Keymap {",
            "    /// `plainText()` written out for `apiexplorer explore --help`: every process builds its",
            "    /// command tree, and reading a constant keeps building the keymap out of start-up.",
            "    package static let plainTextWrittenOut = #" + quotes,
            indented,
            "        " + quotes + "#",
            "}",
            "",
        ].joined(separator: "\n")
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try Data(source.utf8).write(to: Self.writtenOutKeys, options: .atomic)
            return
        }
        #expect(try String(contentsOf: Self.writtenOutKeys, encoding: .utf8) == source, "explore --help's keys are stale: run scripts/generate-docs")
        #expect(Keymap.plainTextWrittenOut == text)
    }

    @Test func everyKeyTheAppReactsToIsListed() {
        // A binding without help is covered by the line of another (1–5, ↓/↑): it shares its scope.
        for binding in Keymap.bindings where binding.help == nil {
            #expect(Keymap.bindings.contains { $0.scope == binding.scope && $0.help != nil }, "\(binding.command)")
        }
        let markdown = Keymap.markdown()
        for (scope, bindings) in Keymap.sections {
            #expect(markdown.contains("**\(scope.rawValue)**"))
            for binding in bindings { #expect(markdown.contains("| \(binding.keyLabel.replacing("|", with: "\\|")) |")) }
        }
    }
}

/// docs/architecture.md's module graph is Package.swift's: every module but the tests, what it
/// uses of this package and of others. `scripts/generate-docs` rewrites it (`UPDATE_DOCS=1`); the
/// suite's tests run one at a time, since each rewrites its part of the same file.
@Suite(.offPool, .serialized) struct ArchitectureDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let document = root.appendingPathComponent("docs/architecture.md")
    static let begin = "<!-- modules: generated from Package.swift by scripts/generate-docs; a test fails when this is stale -->"
    static let end = "<!-- modules: end -->"

    @Test func moduleGraphIsPackageSwift() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/architecture.md lost its module graph markers")
        let finish = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let expected = "\n" + Self.moduleTable(manifest) + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try (text[..<start.upperBound] + expected + text[finish.lowerBound...]).write(to: Self.document, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[start.upperBound..<finish.lowerBound]) == expected, "docs/architecture.md's modules are stale: run scripts/generate-docs")
    }

    @Test func theTableReadsTargetsTheirDependenciesAndProducts() {
        let manifest = #"""
            products: [.library(name: "Core", targets: ["Core", "Calls"])],
            targets: [
                .target(name: "Text"),
                .target(name: "Core", dependencies: ["Text", .product(name: "Logging", package: "swift-log")]),
                .target(name: "Calls", dependencies: ["Core"]),
                .executableTarget(name: "tool", dependencies: ["Core"], linkerSettings: [.unsafeFlags(["-x"])]),
                .testTarget(name: "CoreTests", dependencies: ["Core"]),
            ]
            """#
        #expect(Self.moduleTable(manifest) == """
            | Module | Kind | Uses (this package) | Uses (other packages) |
            |---|---|---|---|
            | `Text` | module | — | — |
            | `Core` | library product | `Text` | Logging |
            | `Calls` | library product | `Core` | — |
            | `tool` | executable | `Core` | — |
            """)
    }

    /// The targets of a manifest written as Package.swift is (`.target(name: "X", dependencies: [...])`), tests left out.
    static func moduleTable(_ manifest: String) -> String {
        let kinds = [".target(": "module", ".executableTarget(": "executable", ".systemLibrary(": "system library", ".testTarget(": "test"]
        // A target in any library product (the `Catalog` product has two) is one programs outside may use.
        let libraries = Set(matches(of: #"\.library\(name: "[^"]+", targets: \[([^\]]*)\]"#, in: manifest).flatMap { matches(of: #""([^"]+)""#, in: $0) })
        var starts: [(range: Range<String.Index>, kind: String)] = []
        for (opener, kind) in kinds {
            var from = manifest.startIndex
            while let range = manifest.range(of: opener, range: from..<manifest.endIndex) {
                starts.append((range, kind))
                from = range.upperBound
            }
        }
        starts.sort { $0.range.lowerBound < $1.range.lowerBound }
        var rows = ["| Module | Kind | Uses (this package) | Uses (other packages) |", "|---|---|---|---|"]
        for (index, start) in starts.enumerated() where start.kind != "test" {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : manifest.endIndex
            let body = String(manifest[start.range.upperBound..<end])
            guard let name = matches(of: #"^\s*name: "([^"]+)""#, in: body).first else { continue }
            var own: [String] = []
            var others: [String] = []
            if let list = bracketed(after: "dependencies: [", in: body) {
                others = matches(of: #"\.product\(name: "([^"]+)""#, in: list)
                let plain = list.replacing(#/\.product\([^)]*\)/#, with: "")
                own = matches(of: #""([^"]+)""#, in: plain)
            }
            let kind = libraries.contains(name) ? "library product" : start.kind
            let ownText = own.isEmpty ? "—" : own.map { "`\($0)`" }.joined(separator: ", ")
            rows.append("| `\(name)` | \(kind) | \(ownText) | \(others.isEmpty ? "—" : others.joined(separator: ", ")) |")
        }
        return rows.joined(separator: "\n")
    }

    /// The text between `opener`'s `[` and the `]` that closes it.
    static func bracketed(after opener: String, in text: String) -> String? {
        guard let range = text.range(of: opener) else { return nil }
        var depth = 1
        var index = range.upperBound
        while index < text.endIndex {
            switch text[index] {
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return String(text[range.upperBound..<index]) }
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The first capture of every match of `pattern`.
    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? Regex(pattern).anchorsMatchLineEndings() else { return [] }
        return text.matches(of: regex).compactMap { $0.output[1].substring.map(String.init) }
    }
}
