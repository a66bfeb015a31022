import TextSupport

/// A `.http` multipart body as JetBrains' HTTP Client and VS Code REST Client read it: parts
/// between `--BOUNDARY` lines (the boundary from the request's Content-Type), each with its
/// headers, an empty line and its content. A part whose content is one `< path` line sends that
/// file's bytes as they are; the lines of any other part are sent joined with CR LF, as both
/// clients write a multipart body (RFC 2046 frames it so), without the line end before the next
/// boundary (it belongs to the boundary).
struct HTTPMultipartBody {
    /// What a part sends.
    enum Content: Equatable {
        /// Its lines, joined with CR LF.
        case text(String)
        /// `< path`: the file's bytes (relative to the `.http` file).
        case file(String)
    }

    /// One part.
    struct Part: Equatable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Content
    }

    /// The parts, in order.
    var parts: [Part]

    /// The parts of `text` when `contentType` is `multipart/form-data` with a boundary and the
    /// text holds at least one part with a name; nil otherwise (the body is then sent as written).
    init?(_ text: String, contentType: String) {
        let parameters = Self.parameters(contentType)
        guard parameters.value.lowercased() == "multipart/form-data", let boundary = parameters.pairs["boundary"], !boundary.isEmpty else { return nil }
        let delimiter = "--" + boundary
        var parts: [Part] = []
        var current: [String]?
        func finish() {
            if let lines = current, let part = Self.part(lines) { parts.append(part) }
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine.trimmingSuffix { $0 == "\r" || $0 == " " || $0 == "\t" })
            if line == delimiter || line == delimiter + "--" {
                finish()
                current = line == delimiter ? [] : nil
                continue
            }
            current?.append(String(rawLine.trimmingSuffix { $0 == "\r" }))
        }
        finish()
        guard !parts.isEmpty else { return nil }
        self.parts = parts
    }

    /// A part's headers, then its content after the first empty line.
    private static func part(_ lines: [String]) -> Part? {
        guard let blank = lines.firstIndex(where: { $0.trimmed.isEmpty }) else { return nil }
        var name: String?
        var filename: String?
        var contentType: String?
        for header in lines[..<blank] {
            guard let colon = header.firstIndex(of: ":") else { continue }
            let value = String(header[header.index(after: colon)...]).trimmed
            switch header[..<colon].trimmed.lowercased() {
            case "content-disposition":
                let disposition = parameters(value)
                name = disposition.pairs["name"]
                filename = disposition.pairs["filename"]
            case "content-type":
                contentType = value
            default:
                continue
            }
        }
        guard let name else { return nil }
        let content = Array(lines[(blank + 1)...])
        let written = content.filter { !$0.trimmed.isEmpty }
        if written.count == 1, let only = written.first?.trimmed, only.hasPrefix("< ") {
            return Part(name: name, filename: filename, contentType: contentType, content: .file(String(only.dropFirst(2)).trimmed))
        }
        return Part(name: name, filename: filename, contentType: contentType, content: .text(content.joined(separator: "\r\n")))
    }

    /// `type; a=1; b="x y"` as the type and its parameters (names lowercased, quotes removed).
    static func parameters(_ header: String) -> (value: String, pairs: [String: String]) {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        for character in header {
            if character == "\"" { quoted.toggle() }
            if character == ";", !quoted {
                pieces.append(piece)
                piece = ""
            } else {
                piece.append(character)
            }
        }
        pieces.append(piece)
        var pairs: [String: String] = [:]
        for parameter in pieces.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            var value = String(parameter[parameter.index(after: equals)...]).trimmed
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            pairs[parameter[..<equals].trimmed.lowercased()] = value
        }
        return (pieces.first?.trimmed ?? "", pairs)
    }
}
