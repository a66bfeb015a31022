import FoundationEssentials
import DispatcherCore

extension Request {
    /// The request as a curl command line, secrets masked by `redactor` (nil shows them in clear).
    package func curlCommand(redactor: Redactor? = .standard) -> String {
        var parts = ["curl"]
        if method == .head {
            parts.append("--head")
        } else if method != .get || ((body != nil || streamedBody != nil) && method == .get) {
            parts.append("-X \(method.rawValue)")
        }
        let shownURL = redactor?.url(url) ?? url.absoluteString
        parts.append(ShellQuoting.quote(shownURL))
        // curl makes a multipart form's boundary itself: ours in a header would not match its body.
        let multipart = if case .multipart? = streamedBody?.source { true } else { false }
        for field in headers where !(multipart && Headers.sameName(field.name, "Content-Type")) {
            let value = redactor?.header(name: field.name, value: field.value) ?? field.value
            parts.append("-H \(ShellQuoting.quote("\(field.name): \(value)"))")
        }
        if let streamedBody {
            parts += Self.curlArguments(streamedBody.source, redactor: redactor)
        } else if let body, !body.isEmpty {
            let contentType = headers["Content-Type"]
            if let text = String(data: body, encoding: .utf8) {
                let shown = redactor?.body(body, contentType: contentType) ?? text
                parts.append("--data-raw \(ShellQuoting.quote(shown))")
            } else {
                parts.append("--data-binary @body.bin")
            }
        }
        return parts.joined(separator: " \\\n  ")
    }

    /// `--data-binary @file` for a file; `-F name=value` / `-F 'name=@path;type=…;filename=…'` for
    /// a multipart form (curl makes the boundary and the Content-Type itself).
    static func curlArguments(_ body: RequestBody, redactor: Redactor?) -> [String] {
        switch body {
        case .file(let path, _): return ["--data-binary \(ShellQuoting.quote("@" + path))"]
        case .multipart(let fields):
            return fields.map { field in
                var value: String
                switch field.content {
                case .text(let text): value = "\(field.name)=\(redactor?.text(text) ?? text)"
                case .file(let path, _): value = "\(field.name)=@\(path)"
                case .bytes: value = "\(field.name)=@\(field.filename ?? "file")"
                }
                if case .text = field.content {
                    if let type = field.contentType { value += ";type=\(type)" }
                    return "--form-string \(ShellQuoting.quote(value))"
                }
                if let type = field.contentType { value += ";type=\(type)" }
                if let filename = field.filename, case .file(let path, let given) = field.content, given != nil || !path.hasSuffix("/" + filename) {
                    value += ";filename=\(filename)"
                }
                return "-F \(ShellQuoting.quote(value))"
            }
        default: return []
        }
    }
}

/// POSIX shell quoting.
package enum ShellQuoting {
    /// `it's` → `'it'\''s'`; plain words stay as they are.
    package static func quote(_ text: String) -> String {
        if !text.isEmpty, text.utf8.allSatisfy(isSafe) { return text }
        return "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// Letters, digits and `-_./:=@%+,`: a word of only these needs no quotes.
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-_./:=@%+,".utf8.contains(byte)
        }
    }
}
