import JSONSupport
import TextSupport

/// Postman's simplest `pm.test` checks read from a test script's lines: status, a header, the
/// response time, and `pm.expect(json.a.b).to.eql(v)` after `var json = pm.response.json()`.
/// Everything else is named, with its line, for the import notes.
enum PostmanScriptChecks {
    /// Whether a statement checks the response (the rest of a script sets variables and the like,
    /// which the note on the whole script covers).
    static func isCheck(_ statement: String) -> Bool {
        ["pm.expect(", "pm.response.to.", "pm.test(", "tests[", "tests.", "postman.setNextRequest"].contains { statement.contains($0) }
    }

    /// The checks the lines state, and each line (1-based) with a check not understood.
    static func read(_ lines: [String]) -> (expect: ExpectDraft, unknown: [(line: Int, text: String)]) {
        var expect = ExpectDraft()
        var unknown: [(Int, String)] = []
        var jsonNames: Set<String> = []
        for (index, raw) in lines.enumerated() {
            let statement = Self.statement(raw.trimmed)
            guard !statement.isEmpty else { continue }
            if let match = statement.wholeMatch(of: /(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*pm\.response\.json\(\)/) {
                jsonNames.insert(String(match.1))
            } else if !Self.read(statement, jsonNames: jsonNames, into: &expect), isCheck(statement) {
                unknown.append((index + 1, raw.trimmed))
            }
        }
        return (expect, unknown)
    }

    /// The statement of a line without `pm.test("…", function () {` before it, `});` after it
    /// and its `;`; empty for a line that only opens or closes a test, or a comment.
    static func statement(_ line: String) -> String {
        var text = Substring(line)
        if text.hasPrefix("//") { return "" }
        if let opening = text.prefixMatch(of: /pm\.test\(\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)\s*,\s*(?:function\s*\(\s*\)\s*\{|\(\s*\)\s*=>\s*\{?)/) {
            text = text[opening.range.upperBound...]
        }
        var trimmed = String(text).trimmed
        while let last = trimmed.last, last == ";" || last == ")" || last == "}" || last == " " {
            // Keep a call's own closing parenthesis: drop only what the test wrapper adds.
            if last == ")" && trimmed.filter({ $0 == "(" }).count >= trimmed.filter({ $0 == ")" }).count { break }
            trimmed.removeLast()
        }
        return trimmed
    }

    /// Adds the check `statement` states; false when it is not one of the patterns read.
    static func read(_ statement: String, jsonNames: Set<String>, into expect: inout ExpectDraft) -> Bool {
        if let match = statement.wholeMatch(of: /pm\.response\.to\.have\.status\((\d{3})\)/), let code = Int(match.1) {
            expect.add(.status, "equals", .integer(code))
            return true
        }
        if let match = statement.wholeMatch(of: /pm\.expect\(pm\.response\.(?:code|status)\)\.to\.(?:eql|equal|equals|be\.equal)\((\d{3})\)/),
            let code = Int(match.1)
        {
            expect.add(.status, "equals", .integer(code))
            return true
        }
        if let match = statement.wholeMatch(of: /pm\.response\.to\.have\.header\(\s*("[^"]*"|'[^']*')\s*(?:,\s*("[^"]*"|'[^']*')\s*)?\)/) {
            guard case .string(let name)? = literal(match.1) else { return false }
            if let given = match.2 {
                guard let value = literal(given) else { return false }
                expect.add(.header(name), "equals", value)
            } else {
                expect.add(.header(name), "exists", .bool(true))
            }
            return true
        }
        if let match = statement.wholeMatch(of: /pm\.expect\(pm\.response\.responseTime\)\.to\.be\.(below|lessThan|above|greaterThan)\((\d+(?:\.\d+)?)\)/) {
            let comparison = match.1 == "below" || match.1 == "lessThan" ? "lessThan" : "greaterThan"
            expect.add(.time, comparison, .number(String(match.2)))
            return true
        }
        if let match = statement.wholeMatch(of: /pm\.expect\(([A-Za-z_$][\w$]*(?:\(\))?)((?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["[^"]*"\]|\['[^']*'\])*)\)\.to\.(?:eql|equal|deep\.equal|be\.equal)\((.+)\)/) {
            let root = String(match.1)
            guard jsonNames.contains(root) || root == "pm.response.json()", let value = literal(match.3),
                let path = jsonPath(String(match.2))
            else { return false }
            expect.add(.body(path), "equals", value)
            return true
        }
        if let match = statement.wholeMatch(of: /pm\.expect\(pm\.response\.json\(\)((?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["[^"]*"\]|\['[^']*'\])*)\)\.to\.(?:eql|equal|deep\.equal|be\.equal)\((.+)\)/) {
            guard let value = literal(match.2), let path = jsonPath(String(match.1)) else { return false }
            expect.add(.body(path), "equals", value)
            return true
        }
        return false
    }

    /// `.a.b[0]["c d"]` as `$.a.b[0]['c d']`; nil when the result does not parse as a JSONPath.
    static func jsonPath(_ access: String) -> String? {
        var path = "$"
        var rest = Substring(access)
        while !rest.isEmpty {
            if let member = rest.prefixMatch(of: /\.([A-Za-z_$][\w$]*)/) {
                path += "." + member.1
                rest = rest[member.range.upperBound...]
            } else if let index = rest.prefixMatch(of: /\[(\d+)\]/) {
                path += "[\(index.1)]"
                rest = rest[index.range.upperBound...]
            } else if let quoted = rest.prefixMatch(of: /\[(?:"([^"]*)"|'([^']*)')\]/) {
                let name = String(quoted.1 ?? quoted.2 ?? "")
                guard !name.contains("'"), !name.contains("\\") else { return nil }
                path += "['\(name)']"
                rest = rest[quoted.range.upperBound...]
            } else {
                return nil
            }
        }
        return (try? JSONPath(path)) != nil ? path : nil
    }

    /// A JavaScript literal that is JSON, or a single-quoted string; nil for anything else.
    static func literal(_ text: some StringProtocol) -> JSONValue? {
        let trimmed = String(text).trimmed
        if trimmed.count >= 2, trimmed.hasPrefix("'"), trimmed.hasSuffix("'") {
            let inner = trimmed.dropFirst().dropLast()
            guard !inner.contains("'"), !inner.contains("\\") else { return nil }
            return .string(String(inner))
        }
        return try? JSONValue.parse(trimmed)
    }
}
