/// The keymap written out for people: README's key tables and `explore --help`'s keys.
extension Keymap {
    /// The keys as Markdown tables, one per scope: README's "Keys" section is this, word for word
    /// (a test fails when it is not; `scripts/generate-docs` rewrites it).
    package static func markdown() -> String {
        sections.map { scope, bindings in
            var lines = ["**\(scope.rawValue)**", "", "| Key | Does |", "|---|---|"]
            for binding in bindings {
                lines.append("| \(markdownCell(binding.keyLabel)) | \(markdownCell(binding.help ?? "")) |")
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// The keys as plain text for `apiexplorer explore --help`: a line per scope.
    package static func plainText(of bindings: [KeyBinding] = bindings) -> String {
        sections(of: bindings).map { scope, bindings in
            "\(scope.rawValue): " + bindings.map { "\($0.keyLabel) \($0.help ?? "")" }.joined(separator: "; ") + "."
        }.joined(separator: "\n")
    }

    /// Text safe in a table cell: `|` escaped, backquoted spans kept.
    private static func markdownCell(_ text: String) -> String {
        text.replacing("|", with: "\\|")
    }
}
