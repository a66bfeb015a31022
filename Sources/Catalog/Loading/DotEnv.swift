import SystemSupport

/// Reads `.env` files: `NAME=value` lines, `#` comments, an optional `export ` prefix, single
/// quotes (literal), double quotes (with `\n`, `\t`, `\"`, `\\` escapes, may span lines) and
/// unquoted values ending at ` #`. Problems are reported by position, never with the value.
package enum DotEnv {
    /// The largest `.env` read: a few hundred secrets are a few KiB; a larger file is someone
    /// else's doing and is refused before memory is spent on it.
    package static let maximumFileSize = 1 << 20

    /// Why the `.env` was not read, said of "the file" (the diagnostic names it).
    static func unreadable(_ error: FileReadError) -> String {
        switch error {
        case .tooLarge: "the file holds more than the \(FileReadError.limitText(maximumFileSize)) a .env may hold; no secret is read from it"
        case .notRegularFile(_, let kind): "the file is not a regular file (it is \(kind)); no secret is read from it"
        case .missing: "the file was removed while it was read"
        case .symbolicLink: "the file is a symbolic link, which is not followed here"
        case .unreadable(_, let reason): "the file cannot be read (\(reason)); no secret is read from it"
        }
    }

    /// A line that could not be read.
    package struct Problem: Sendable, Hashable {
        /// 1-based line.
        package var line: Int
        /// 1-based column.
        package var column: Int
        /// What is wrong (never the value).
        package var message: String
    }

    /// The values in file order (a later name replaces an earlier one) and the problems.
    package static func parse(_ text: String) -> (values: [String: String], problems: [Problem]) {
        var values: [String: String] = [:]
        var problems: [Problem] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        var index = 0
        while index < lines.count {
            let lineNumber = index + 1
            var rest = lines[index].drop { $0 == " " || $0 == "\t" }
            index += 1
            if rest.isEmpty || rest.first == "#" { continue }
            if rest.hasPrefix("export ") || rest.hasPrefix("export\t") {
                rest = rest.dropFirst("export".count).drop { $0 == " " || $0 == "\t" }
            }
            let column = lines[index - 1].count - rest.count + 1
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
            guard !name.isEmpty, let first = name.first, !first.isNumber else {
                problems.append(Problem(line: lineNumber, column: column, message: "expected NAME=value"))
                continue
            }
            var afterName = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
            guard afterName.first == "=" else {
                // The name is not shown: a line without '=' may be a pasted secret.
                problems.append(Problem(line: lineNumber, column: column, message: "expected NAME=value: no '=' after the name"))
                continue
            }
            afterName = afterName.dropFirst().drop { $0 == " " || $0 == "\t" }
            switch afterName.first {
            case "\"", "'":
                let quote = afterName.first ?? "\""
                var value = ""
                var body = afterName.dropFirst()
                var closed = false
                var escaped = false
                while !closed {
                    while let character = body.first {
                        body = body.dropFirst()
                        if escaped {
                            switch character {
                            case "n": value.append("\n")
                            case "t": value.append("\t")
                            case "r": value.append("\r")
                            default: value.append(character)
                            }
                            escaped = false
                        } else if quote == "\"" && character == "\\" {
                            escaped = true
                        } else if character == quote {
                            closed = true
                            break
                        } else {
                            value.append(character)
                        }
                    }
                    if closed || index >= lines.count { break }
                    value.append("\n")
                    body = lines[index]
                    index += 1
                }
                guard closed else {
                    problems.append(Problem(line: lineNumber, column: column, message: "the quoted value of \(name) is never closed"))
                    continue
                }
                let trailing = body.drop { $0 == " " || $0 == "\t" }
                if !trailing.isEmpty && trailing.first != "#" {
                    problems.append(Problem(line: lineNumber, column: column, message: "unexpected text after the quoted value of \(name)"))
                    continue
                }
                values[String(name)] = value
            default:
                var value = afterName
                if let comment = value.firstRange(of: " #") ?? value.firstRange(of: "\t#") { value = value[..<comment.lowerBound] }
                while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
                values[String(name)] = String(value)
            }
        }
        return (values, problems)
    }
}
