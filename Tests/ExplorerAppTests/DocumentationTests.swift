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
