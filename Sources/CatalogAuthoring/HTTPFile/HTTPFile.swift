import TextSupport

/// A `.http` / `.rest` file in the JetBrains HTTP Client format, which VS Code REST Client
/// shares: requests separated by `###` lines (the rest of the line names the request),
/// `@name = value` variables, `# @name id` tags, `#` and `//` comments, a request line
/// (`METHOD URL [HTTP/version]`, or a URL alone for GET) continued on indented `?`/`&` lines,
/// headers, an empty line, and a body (`< path` reads it from a file). Response handlers
/// (`> {% … %}`, `> script.js`) and response references (`<> file`) are kept apart, never run.
package struct HTTPFile: Sendable, Equatable {
    /// A request's body.
    package enum Body: Sendable, Equatable {
        /// Text as written.
        case text(String)
        /// `< path`: read from a file, relative to the `.http` file.
        case file(String)
    }

    /// One request.
    package struct Request: Sendable, Equatable {
        /// The text after `###`, if any.
        package var title: String?
        /// The `# @name` tag, if any.
        package var name: String?
        /// The method (GET when the line has only a URL).
        package var method: String
        /// The URL as written, continuation lines joined.
        package var url: String
        /// Headers in order.
        package var headers: [Header]
        /// The body.
        package var body: Body?
        /// Response handler scripts and references, as written.
        package var handlers: [String]
        /// Variables set just before this request (`@name = value`), which apply from here on.
        package var variables: [Header]
        /// The 1-based line of its request line in the file.
        package var line: Int
        /// Scripts run before it (`< {% … %}`, `< script.js`) and directives other clients add
        /// (`import`, `run`), as written: never run.
        package var preRequest: [String]
        /// Hurl's response part, as written: `HTTP 200`, the header lines under it, and the lines
        /// of its sections (`[Asserts]`, `[Captures]` …).
        package var response: [ResponseLine]

        /// Makes a request.
        package init(title: String? = nil, name: String? = nil, method: String, url: String, headers: [Header] = [], body: Body? = nil) {
            self.title = title
            self.name = name
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            handlers = []
            variables = []
            line = 0
            preRequest = []
            response = []
        }
    }

    /// A line of Hurl's response part.
    package struct ResponseLine: Sendable, Equatable {
        /// `status` for `HTTP 200`, `header` for a header line under it, else the section's name (`Asserts`).
        package var section: String
        /// The line as written, trimmed.
        package var text: String
        /// The 1-based line in the file.
        package var line: Int
    }

    /// A name and a value (a header or a variable).
    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: String

        /// Makes one.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The requests in file order.
    package var requests: [Request]

    /// Every variable of the file in order (a later one wins).
    package var variables: [Header] { requests.flatMap(\.variables) + trailingVariables }
    /// Variables after the last request.
    private(set) var trailingVariables: [Header] = []

    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "GRAPHQL", "QUERY"]

    /// Reads a file's text.
    package init(parsing text: String) {
        requests = []
        var pending = Block()
        // Visual Studio's `.http` template starts with a byte-order mark.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = String(rawLine).replacing("\r", with: "")
            if line.hasPrefix("###") {
                finish(&pending)
                pending = Block(title: line.dropFirst(3).trimmed)
                continue
            }
            pending.add(line, number: number + 1)
        }
        finish(&pending)
        trailingVariables = carried
    }

    /// Variables of blocks without a request, which apply to the next request.
    private var carried: [Header] = []

    private mutating func finish(_ block: inout Block) {
        if var request = block.request() {
            request.variables = carried + request.variables
            carried = []
            requests.append(request)
        } else {
            carried += block.variables
        }
    }

    /// The lines between two `###` separators, read as they come.
    private struct Block {
        enum Part { case preamble, headers, body, response }
        var title: String?
        var part = Part.preamble
        var name: String?
        var variables: [Header] = []
        var method = "GET"
        var url = ""
        var headers: [Header] = []
        var bodyLines: [String] = []
        var handlers: [String] = []
        var inHandler = false
        var preRequest: [String] = []
        var inPreRequest = false
        var line = 0
        var response: [ResponseLine] = []
        var responseSection = "header"

        init(title: String? = nil) {
            self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        }

        mutating func add(_ line: String, number: Int) {
            let trimmed = line.trimmed
            // Hurl's response part: `HTTP 200` (or `HTTP/1.1 200`, `HTTP *`) after the request ends its body.
            if part != .preamble, !inHandler, trimmed.wholeMatch(of: /HTTP(?:\/[\d.]+)?\s+(?:\d{3}|\*)/) != nil {
                part = .response
                response.append(ResponseLine(section: "status", text: trimmed, line: number))
                return
            }
            switch part {
            case .response:
                guard !trimmed.isEmpty, Self.comment(trimmed) == nil else { return }
                if let section = trimmed.wholeMatch(of: /\[([A-Za-z]+)\]/) {
                    responseSection = String(section.1)
                } else {
                    response.append(ResponseLine(section: responseSection, text: trimmed, line: number))
                }
            case .preamble:
                if inPreRequest {
                    preRequest[preRequest.count - 1] += "\n" + line
                    if trimmed.hasSuffix("%}") { inPreRequest = false }
                    return
                }
                if trimmed.isEmpty { return }
                if let tag = Self.comment(trimmed) {
                    if tag.hasPrefix("@name") { name = tag.dropFirst(5).trimmed.split(separator: " ").first.map(String.init) ?? name }
                    return
                }
                if trimmed.hasPrefix("@"), let equals = trimmed.firstIndex(of: "=") {
                    variables.append(Header(trimmed[trimmed.index(after: trimmed.startIndex)..<equals].trimmed, trimmed[trimmed.index(after: equals)...].trimmed))
                    return
                }
                // A pre-request script (`< {% … %}`, `< script.js`), or another client's directive
                // (`import file.http`, `run #name`): kept, never run.
                if trimmed.hasPrefix("< ") || trimmed.hasPrefix("import ") || trimmed.hasPrefix("run ") {
                    preRequest.append(line)
                    inPreRequest = trimmed.hasPrefix("< {%") && !trimmed.hasSuffix("%}")
                    return
                }
                self.line = number
                var words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                if let first = words.first, HTTPFile.methods.contains(first.uppercased()), words.count > 1 {
                    method = first.uppercased()
                    words.removeFirst()
                }
                if words.count > 1, words.last?.uppercased().hasPrefix("HTTP/") == true { words.removeLast() }
                url = words.joined(separator: " ")
                part = .headers
            case .headers:
                if trimmed.isEmpty {
                    part = .body
                } else if line.first?.isWhitespace == true && (headers.isEmpty || trimmed.hasPrefix("?") || trimmed.hasPrefix("&")) {
                    // The request target continues on indented lines (`  /post`, `  ?a=1`, `  #fragment`).
                    url += trimmed
                } else if Self.comment(trimmed) != nil {
                    return
                } else if let colon = trimmed.firstIndex(of: ":") {
                    headers.append(Header(String(trimmed[..<colon]).trimmed, String(trimmed[trimmed.index(after: colon)...]).trimmed))
                }
            case .body:
                if inHandler {
                    handlers[handlers.count - 1] += "\n" + line
                    if trimmed.hasSuffix("%}") { inHandler = false }
                } else if trimmed.hasPrefix("> ") || trimmed.hasPrefix(">> ") || trimmed.hasPrefix("<> ") {
                    handlers.append(line)
                    inHandler = trimmed.hasPrefix("> {%") && !trimmed.hasSuffix("%}")
                } else {
                    bodyLines.append(line)
                }
            }
        }

        /// The text of a `#` or `//` comment line, or nil.
        static func comment(_ line: String) -> String? {
            if line.hasPrefix("#") { return line.dropFirst().trimmed }
            if line.hasPrefix("//") { return line.dropFirst(2).trimmed }
            return nil
        }

        func request() -> Request? {
            // A fragment is never sent.
            let url = String(url.prefix { $0 != "#" })
            guard !url.isEmpty else { return nil }
            var lines = bodyLines
            while let last = lines.last, last.trimmed.isEmpty { lines.removeLast() }
            var body: Body?
            if lines.count == 1, lines[0].hasPrefix("< ") {
                body = .file(lines[0].dropFirst(2).trimmed)
            } else if !lines.isEmpty {
                body = .text(lines.joined(separator: "\n"))
            }
            var request = Request(title: title, name: name, method: method, url: url, headers: headers, body: body)
            request.handlers = handlers
            request.variables = variables
            request.line = line
            request.preRequest = preRequest
            request.response = response
            return request
        }
    }
}
