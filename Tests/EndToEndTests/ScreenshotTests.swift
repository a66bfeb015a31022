import Foundation
import Testing
import TestTraits

extension EndToEnd {
    /// screenshots/*.svg are made by `scripts/make-screenshots` through `apiexplorer snapshot`;
    /// they must match what the app renders today.
    @Suite(.offPool) struct ScreenshotTests {
        struct Shot: CustomStringConvertible {
            let name: String
            let arguments: [String]
            var description: String { name }
        }

        /// The lines of screenshots/screenshots.tsv (the same list the script reads).
        static func shots() throws -> [Shot] {
            let list = Products.repositoryRoot.appendingPathComponent("screenshots/screenshots.tsv")
            return try String(contentsOf: list, encoding: .utf8).split(separator: "\n").compactMap { line in
                guard !line.hasPrefix("#"), let tab = line.firstIndex(of: "\t") else { return nil }
                return Shot(name: String(line[..<tab]), arguments: ShellWords.split(String(line[line.index(after: tab)...])))
            }
        }

        @Test func everyScreenshotIsUpToDate() async throws {
            let shots = try Self.shots()
            #expect(shots.count >= 4)
            for shot in shots {
                let expected = Products.repositoryRoot.appendingPathComponent("screenshots/\(shot.name).svg")
                let (status, output) = try await ProductProcess.run(
                    ["snapshot", "--catalog", Products.repositoryRoot.appendingPathComponent("environments").path]
                        + shot.arguments + ["--format", "svg"])
                #expect(status == 0, "snapshot \(shot.name) exited \(status)")
                let current = try Data(contentsOf: expected)
                #expect(output == current, "screenshots/\(shot.name).svg is out of date: run scripts/make-screenshots")
            }
        }

        @Test func shellWordsSplitLikeTheScript() {
            #expect(ShellWords.split(#"--size 120x40 --keys "j x Enter" --live"#) == ["--size", "120x40", "--keys", "j x Enter", "--live"])
            #expect(ShellWords.split("--keys ?") == ["--keys", "?"])
        }
    }
}

/// Splits a line into words the way the shell does for plain and double-quoted words.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var hasWord = false
        for character in line {
            switch character {
            case "\"":
                inQuotes.toggle()
                hasWord = true
            case " " where !inQuotes, "\t" where !inQuotes:
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
            default:
                current.append(character)
                hasWord = true
            }
        }
        if hasWord { words.append(current) }
        return words
    }
}
