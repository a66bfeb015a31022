import FoundationEssentials
import DispatcherCore
import JSONSupport

/// A request as code for other tools: an HTTPie command, a Python `requests` script, a JavaScript
/// `fetch` module. Each sends the same method, URL, headers and body as the request; secrets
/// are masked by the redactor (nil shows them in clear).
public enum RequestCode: String, CaseIterable, Sendable {
    /// `http --ignore-stdin METHOD URL Name:value … --raw BODY` (HTTPie 3.2 or later).
    case httpie
    /// A Python 3 script using `requests`.
    case python
    /// A JavaScript module using `fetch` (Node 18 or later, browsers).
    case javascript

    /// The format's name for people.
    public var title: String {
        switch self {
        case .httpie: "HTTPie"
        case .python: "Python requests"
        case .javascript: "JavaScript fetch"
        }
    }

    /// What the code is, in a few words.
    public var summary: String {
        switch self {
        case .httpie: "an http command (HTTPie 3.2+)"
        case .python: "a script using requests"
        case .javascript: "a module using fetch (Node 18+)"
        }
    }

    /// The code for `request`.
    public func render(_ request: Request, redactor: Redactor? = .standard) -> String {
        let url = redactor?.url(request.url) ?? request.url.absoluteString
        let headers = request.headers.map { ($0.name, redactor?.header(name: $0.name, value: $0.value) ?? $0.value) }
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
            return parts.joined(separator: " \\\n  ") + "\n"
        case .python:
            var lines = ["import requests", "", "response = requests.request(", "    \(Self.quoted(method)),", "    \(Self.quoted(url)),"]
            lines += Self.mapping(headers, opening: "    headers={", closing: "    },")
            if let body { lines.append("    data=\(Self.quoted(body)).encode(),") }
            if binary { lines.append("    data=open(\"body.bin\", \"rb\"),") }
            lines += [")", "print(response.status_code)", "print(response.text)"]
            return lines.joined(separator: "\n") + "\n"
        case .javascript:
            var lines = ["const response = await fetch(\(Self.quoted(url)), {", "  method: \(Self.quoted(method)),"]
            lines += Self.mapping(headers, opening: "  headers: {", closing: "  },")
            if let body { lines.append("  body: \(Self.quoted(body)),") }
            if binary { lines.append("  body: (await import(\"node:fs\")).readFileSync(\"body.bin\"),") }
            lines += ["});", "console.log(response.status);", "console.log(await response.text());"]
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A Python dict or JavaScript object literal of the headers, one per line, indented under `opening`.
    static func mapping(_ headers: [(String, String)], opening: String, closing: String) -> [String] {
        let indent = String(opening.prefix { $0 == " " }) + "    "
        return [opening] + headers.map { "\(indent)\(quoted($0.0)): \(quoted($0.1))," } + [closing]
    }

    /// A double-quoted string literal valid in Python and JavaScript (JSON's escapes).
    static func quoted(_ text: String) -> String {
        var output = ""
        JSONValue.writeQuoted(text, to: &output)
        return output
    }
}
