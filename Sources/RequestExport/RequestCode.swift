import FoundationEssentials
import DispatcherCore
import JSONSupport

/// A request as code for other tools: an HTTPie command, a Python `requests` script, a JavaScript
/// `fetch` module. Each sends the same method, URL, headers and body as the request; secrets
/// are masked by the redactor (nil shows them in clear).
package enum RequestCode: String, CaseIterable, Sendable {
    /// `http --ignore-stdin METHOD URL Name:value … --raw BODY` (HTTPie 3.2 or later).
    case httpie
    /// A Python 3 script using `requests`.
    case python
    /// A JavaScript module using `fetch` (Node 18 or later, browsers).
    case javascript

    /// The format's name for people.
    package var title: String {
        switch self {
        case .httpie: "HTTPie"
        case .python: "Python requests"
        case .javascript: "JavaScript fetch"
        }
    }

    /// What the code is, in a few words.
    package var summary: String {
        switch self {
        case .httpie: "an http command (HTTPie 3.2+)"
        case .python: "a script using requests"
        case .javascript: "a module using fetch (Node 18+)"
        }
    }

    /// The code for `request`.
    package func render(_ request: Request, redactor: Redactor? = .standard) -> String {
        let url = redactor?.url(request.url) ?? request.url.absoluteString
        let streamed = request.streamedBody?.source
        // Each tool makes a multipart form's boundary itself: ours in a header would not match its body.
        let fields: [MultipartField]? = if case .multipart(let fields)? = streamed { fields } else { nil }
        let file: String? = if case .file(let path, _)? = streamed { path } else { nil }
        let headers = request.headers.filter { fields == nil || !Headers.sameName($0.name, "Content-Type") }
            .map { ($0.name, redactor?.header(name: $0.name, value: $0.value) ?? $0.value) }
        let fieldText = { (text: String) in redactor?.text(text) ?? text }
        let body = request.body.flatMap { data -> String? in
            guard !data.isEmpty else { return nil }
            guard let text = String(validating: data, as: UTF8.self) else { return nil }
            return redactor?.body(data, contentType: request.headers["Content-Type"]) ?? text
        }
        let binary = request.body.map { !$0.isEmpty && String(validating: $0, as: UTF8.self) == nil } ?? false
        let method = request.method.rawValue
        switch self {
        case .httpie:
            var parts = ["http --ignore-stdin \(method) \(ShellQuoting.quote(url))"]
            // `Name:value` sets a header; `Name:` alone would remove one HTTPie adds, so an empty value is `Name;`.
            parts += headers.map { ShellQuoting.quote($0.1.isEmpty ? "\($0.0);" : "\($0.0):\($0.1)") }
            if let body { parts.append("--raw \(ShellQuoting.quote(body))") }
            if binary { parts.append("@body.bin") }
            if let file { parts.append(ShellQuoting.quote("@" + file)) }
            if let fields {
                // `name=value` is a field, `name@path;type=…` a file; separators in a name are escaped.
                parts[0] = "http --ignore-stdin --multipart \(method) \(ShellQuoting.quote(url))"
                parts += fields.map { field in
                    let name = Self.httpieEscaped(field.name)
                    switch field.content {
                    case .text(let text): return ShellQuoting.quote("\(name)=\(fieldText(text))")
                    case .file(let path, _): return ShellQuoting.quote("\(name)@\(path)" + (field.contentType.map { ";type=\($0)" } ?? ""))
                    case .bytes(_, let filename): return ShellQuoting.quote("\(name)@\(filename)" + (field.contentType.map { ";type=\($0)" } ?? ""))
                    }
                }
            }
            return parts.joined(separator: " \\\n  ") + "\n"
        case .python:
            var lines = ["import requests", "", "response = requests.request(", "    \(Self.quoted(method)),", "    \(Self.quoted(url)),"]
            lines += Self.mapping(headers, opening: "    headers={", closing: "    },")
            if let body { lines.append("    data=\(Self.quoted(body)).encode(),") }
            if binary { lines.append("    data=open(\"body.bin\", \"rb\"),") }
            if let file { lines.append("    data=open(\(Self.quoted(file)), \"rb\"),") }
            if let fields {
                // requests makes the form: (None, value) is a plain field, (filename, file, type) a file.
                lines.append("    files=[")
                for field in fields {
                    let type = field.headerContentType.map { ", \(Self.quoted($0))" } ?? ""
                    let part = switch field.content {
                    case .text(let text): "(None, \(Self.quoted(fieldText(text)))\(type))"
                    case .file(let path, _): "(\(Self.quoted(field.filename ?? path)), open(\(Self.quoted(path)), \"rb\")\(type))"
                    case .bytes(_, let filename): "(\(Self.quoted(filename)), open(\(Self.quoted(filename)), \"rb\")\(type))"
                    }
                    lines.append("        (\(Self.quoted(field.name)), \(part)),")
                }
                lines.append("    ],")
            }
            lines += [")", "print(response.status_code)", "print(response.text)"]
            return lines.joined(separator: "\n") + "\n"
        case .javascript:
            var lines: [String] = []
            if let fields {
                // fetch makes the form's boundary; a file part is a Blob with its type and filename.
                if fields.contains(where: { if case .text = $0.content { false } else { true } }) {
                    lines.append("import { readFileSync } from \"node:fs\";")
                }
                lines.append("const form = new FormData();")
                for field in fields {
                    let type = field.headerContentType.map { ", { type: \(Self.quoted($0)) }" } ?? ""
                    switch field.content {
                    case .text(let text) where field.contentType == nil:
                        lines.append("form.append(\(Self.quoted(field.name)), \(Self.quoted(fieldText(text))));")
                    case .text(let text):
                        // A typed text part needs a Blob, which fetch sends with the filename "blob".
                        lines.append("form.append(\(Self.quoted(field.name)), new Blob([\(Self.quoted(fieldText(text)))]\(type)));")
                    case .file(let path, _):
                        lines.append(
                            "form.append(\(Self.quoted(field.name)), new Blob([readFileSync(\(Self.quoted(path)))]\(type)), \(Self.quoted(field.filename ?? path)));")
                    case .bytes(_, let filename):
                        lines.append(
                            "form.append(\(Self.quoted(field.name)), new Blob([readFileSync(\(Self.quoted(filename)))]\(type)), \(Self.quoted(filename)));")
                    }
                }
            }
            lines += ["const response = await fetch(\(Self.quoted(url)), {", "  method: \(Self.quoted(method)),"]
            lines += Self.mapping(headers, opening: "  headers: {", closing: "  },")
            if let body { lines.append("  body: \(Self.quoted(body)),") }
            if binary { lines.append("  body: (await import(\"node:fs\")).readFileSync(\"body.bin\"),") }
            if let file { lines.append("  body: (await import(\"node:fs\")).readFileSync(\(Self.quoted(file))),") }
            if fields != nil { lines.append("  body: form,") }
            lines += ["});", "console.log(response.status);", "console.log(await response.text());"]
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A Python dict or JavaScript object literal of the headers, one per line, indented under `opening`.
    static func mapping(_ headers: [(String, String)], opening: String, closing: String) -> [String] {
        let indent = String(opening.prefix { $0 == " " }) + "    "
        return [opening] + headers.map { "\(indent)\(quoted($0.0)): \(quoted($0.1))," } + [closing]
    }

    /// A multipart field's name in an HTTPie request item: its separators escaped, so `a=b` stays one name.
    static func httpieEscaped(_ name: String) -> String {
        var output = ""
        for character in name {
            if "\\=:@;".contains(character) { output.append("\\") }
            output.append(character)
        }
        return output
    }

    /// A double-quoted string literal valid in Python and JavaScript (JSON's escapes).
    static func quoted(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        return output
    }
}
