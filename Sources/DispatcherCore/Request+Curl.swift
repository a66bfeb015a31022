import FoundationEssentials

extension Request {
    /// The request as a curl command line, secrets masked by `redactor` (nil shows them in clear).
    public func curlCommand(redactor: Redactor? = .standard) -> String {
        var parts = ["curl"]
        if method == .head {
            parts.append("--head")
        } else if method != .get || (body != nil && method == .get) {
            parts.append("-X \(method.rawValue)")
        }
        let shownURL = redactor?.url(url) ?? url.absoluteString
        parts.append(ShellQuoting.quote(shownURL))
        for field in headers {
            let value = redactor?.header(name: field.name, value: field.value) ?? field.value
            parts.append("-H \(ShellQuoting.quote("\(field.name): \(value)"))")
        }
        if let body, !body.isEmpty {
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
}

/// POSIX shell quoting.
public enum ShellQuoting {
    /// `it's` → `'it'\''s'`; plain words stay as they are.
    public static func quote(_ text: String) -> String {
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
