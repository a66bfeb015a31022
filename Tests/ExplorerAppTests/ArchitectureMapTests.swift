import Foundation
import Testing
import TestTraits

/// docs/architecture.md's map of the app is the code's: the files of ExplorerApp and
/// ExplorerRuntime with what each holds (the first sentence of its first doc comment), and the
/// slices the root composes (`AppState`'s fields, their `AppAction` and `AppEffect` cases and the
/// `EffectRunner` handler of each). `scripts/generate-docs` rewrites them (`UPDATE_DOCS=1`).
extension ArchitectureDocumentTests {
    static let foldersBegin = "<!-- folders: generated from the sources by scripts/generate-docs; a test fails when this is stale -->"
    static let foldersEnd = "<!-- folders: end -->"
    static let slicesBegin = "<!-- slices: generated from AppState, AppAction, AppEffect and EffectRunner by scripts/generate-docs; a test fails when this is stale -->"
    static let slicesEnd = "<!-- slices: end -->"

    @Test func folderListIsTheSources() throws {
        try Self.check(Self.folderList(), between: Self.foldersBegin, and: Self.foldersEnd, what: "folders")
    }

    @Test func sliceListIsTheRoot() throws {
        try Self.check(try Self.sliceList(), between: Self.slicesBegin, and: Self.slicesEnd, what: "slices")
    }

    @Test func aFileIsDescribedByItsFirstDocCommentsFirstSentence() {
        let source = """
            import Catalog

            /// The cookie jar of an environment, read when the window opened. Kept until it closes.
            /// More lines of the same comment.
            package struct CookiesWindow {}

            /// Another declaration.
            """
        #expect(Self.description(of: source) == "The cookie jar of an environment, read when the window opened.")
        #expect(Self.description(of: "/// Draws `a.b` and the rest\n/// of it: all of it\nenum View {}") == "Draws `a.b` and the rest of it: all of it")
    }

    /// Replaces or checks the text between two markers of docs/architecture.md.
    static func check(_ generated: String, between begin: String, and end: String, what: String) throws {
        let text = try String(contentsOf: document, encoding: .utf8)
        let start = try #require(text.range(of: begin), "docs/architecture.md lost its \(what) markers")
        let finish = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let expected = "\n" + generated + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try (text[..<start.upperBound] + expected + text[finish.lowerBound...]).write(to: document, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[start.upperBound..<finish.lowerBound]) == expected, "docs/architecture.md's \(what) are stale: run scripts/generate-docs")
    }

    /// A table per module: every file, by folder, with what it holds.
    static func folderList() throws -> String {
        var sections: [String] = []
        for module in ["ExplorerApp", "ExplorerRuntime"] {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            // The module's own files first, then each feature's folder.
            let sorted = files.sorted { a, b in
                let (depthA, depthB) = (a.split(separator: "/").count, b.split(separator: "/").count)
                return depthA == 1 && depthB != 1 ? true : depthA != 1 && depthB == 1 ? false : a < b
            }
            var rows = ["**`Sources/\(module)/`**", "", "| File | What it holds |", "|---|---|"]
            for file in sorted {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                rows.append("| `\(file)` | \(description(of: source).replacing("|", with: "\\|")) |")
            }
            sections.append(rows.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    /// The first sentence of a file's first top-level doc comment.
    static func description(of source: String) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("///") }) else { return "" }
        let comment = lines[first...].prefix { $0.hasPrefix("///") }.map { $0.dropFirst(3).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        guard let end = comment.range(of: ". ") else { return comment }
        return String(comment[..<end.lowerBound]) + "."
    }

    /// A row per slice of `AppState`: its state, its actions and effects, and who performs them.
    static func sliceList() throws -> String {
        let app = root.appendingPathComponent("Sources/ExplorerApp")
        let state = try String(contentsOf: app.appendingPathComponent("AppState.swift"), encoding: .utf8)
        let actions = try String(contentsOf: app.appendingPathComponent("AppAction.swift"), encoding: .utf8)
        let runner = try String(contentsOf: root.appendingPathComponent("Sources/ExplorerRuntime/EffectRunner.swift"), encoding: .utf8)
        // Types declared under Features/, by name, with their folder.
        var folders: [String: String] = [:]
        let features = app.appendingPathComponent("Features")
        for file in try FileManager.default.subpathsOfDirectory(atPath: features.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: features.appendingPathComponent(file), encoding: .utf8)
            for name in matches(of: #"^(?:package |public )?(?:struct|enum|final class) (\w+)"#, in: source) {
                folders[name] = file.split(separator: "/").dropLast().joined(separator: "/")
            }
        }
        let (actionEnum, effectEnum) = (enumBody("AppAction", in: actions), enumBody("AppEffect", in: actions))
        func featureCase(_ body: String, _ payload: String) -> String? {
            matches(of: #"^    case (\w+)\("# + payload + #"\)"#, in: body).first
        }
        var rows = ["| Slice (`AppState`) | Folder | State | Action | Effect | Effect handler (`EffectRunner`) |", "|---|---|---|---|---|---|"]
        for line in matches(of: #"^    package (?:internal\(set\) )?var (\w+ = \w+\(\))"#, in: state) {
            let parts = line.split(separator: " ")
            let (field, type) = (String(parts[0]), String(parts[2].dropLast(2)))
            guard let folder = folders[type] else { continue }
            let feature = String(type.dropLast("State".count))
            let action = featureCase(actionEnum, feature + "Action").map { "`.\($0)(\(feature)Action)`" } ?? "—"
            let effectCase = featureCase(effectEnum, feature + "Effect")
            let effect = effectCase.map { "`.\($0)(\(feature)Effect)`" } ?? "—"
            var handler = "—"
            if let effectCase, let property = matches(of: #"case \.\#(effectCase)\(let effect\): (\w+)\.perform"#, in: runner).first,
                let type = matches(of: #"(?:let|var) \#(property)(?:: | = )(\w+)"#, in: runner).first
            {
                handler = "`\(type)`"
            }
            rows.append("| `\(field)` | `Features/\(folder)/` | `\(type)` | \(action) | \(effect) | \(handler) |")
        }
        return rows.joined(separator: "\n")
    }

    /// The lines of `enum name { … }` in `source`.
    static func enumBody(_ name: String, in source: String) -> String {
        guard let start = source.range(of: "enum \(name): "), let end = source.range(of: "\n}\n", range: start.upperBound..<source.endIndex) else { return "" }
        return String(source[start.upperBound..<end.lowerBound])
    }
}
