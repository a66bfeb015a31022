import DispatcherCore
import FoundationEssentials
import TextSupport

/// A request read from a curl command line (as browsers' "Copy as cURL" and API docs write them).
package struct CurlRequest: Sendable, Hashable {
    /// The method (`-X`, else POST with data, HEAD with `-I`, else GET).
    package var method: HTTPMethod
    /// The URL, with `-G` data appended as its query.
    package var url: URL
    /// Headers in order (`-H`, `-A`, `-e`, `-b`, `-u`).
    package var headers: [(name: String, value: String)]
    /// The body (`-d`, `--data-*`, `--json`), when given.
    package var body: String?
    /// Multipart fields (`-F`, `--form-string`), when given; then `body` is nil.
    package var form: [CurlFormField] = []
    /// Whether `-k` / `--insecure` was given.
    package var insecure: Bool
    /// Options that were understood but have no equivalent here (`--compressed`, `-L` …).
    package var ignoredOptions: [String]
    /// Whether the URL held credentials (`http://ann:pw@host/`), now `Authorization: Basic`.
    package var hadURLCredentials = false

    /// Makes a request.
    package init(
        method: HTTPMethod, url: URL, headers: [(name: String, value: String)] = [], body: String? = nil, insecure: Bool = false,
        ignoredOptions: [String] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.insecure = insecure
        self.ignoredOptions = ignoredOptions
    }

    /// Moves credentials written in the URL (`http://ann:pw@host/`) to `Authorization: Basic`, as
    /// curl sends them (percent-decoded); a `-u` or an `Authorization` header given wins, as in curl.
    package mutating func moveURLCredentials() {
        guard let credentials = URLCredentials(url) else { return }
        url = URLCredentials.removing(from: url)
        hadURLCredentials = true
        if header("Authorization") == nil { headers.insert(("Authorization", credentials.authorization), at: 0) }
    }

    /// The first value of a header, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { Headers.sameName($0.name, name) }?.value
    }

    package static func == (lhs: CurlRequest, rhs: CurlRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.insecure == rhs.insecure && lhs.form == rhs.form
            && lhs.headers.map { "\($0.name.lowercased()):\($0.value)" } == rhs.headers.map { "\($0.name.lowercased()):\($0.value)" }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
    }
}

/// A field of curl's `-F`: `name=value`, `name=@file;type=…;filename=…` (a file), `name=<file`
/// (the file's contents as the value; kept as a file field here), or `--form-string name=value`:
/// the fields a catalog's `multipart:` writes.
package typealias CurlFormField = CatalogDraft.MultipartDraftField

extension CatalogDraft.MultipartDraftField {
    /// Reads `-F`'s argument (`literal`: `--form-string`, where `@` and `<` mean nothing).
    static func parse(_ text: String, literal: Bool) throws(AuthoringError) -> CurlFormField {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .invalidInput("-F \(text) is not NAME=VALUE")
        }
        let name = String(text[..<equals])
        let rest = String(text[text.index(after: equals)...])
        if literal { return CurlFormField(name: name, value: rest) }
        guard let first = rest.first, first == "@" || first == "<" else {
            // `;type=` may follow a text value too.
            let parts = rest.split(separator: ";", maxSplits: 1)
            if parts.count == 2, parts[1].hasPrefix("type=") {
                return CurlFormField(name: name, value: String(parts[0]), contentType: String(parts[1].dropFirst(5)))
            }
            return CurlFormField(name: name, value: rest)
        }
        var field = CurlFormField(name: name)
        let pieces = rest.dropFirst().split(separator: ";").map(String.init)
        guard let path = pieces.first, !path.isEmpty else { throw .invalidInput("-F \(text) names no file") }
        field.file = path
        for option in pieces.dropFirst() {
            if option.hasPrefix("type=") { field.contentType = String(option.dropFirst(5)) }
            else if option.hasPrefix("filename=") { field.filename = String(String(option.dropFirst(9)).trimming(where: { $0 == "\"" })) }
        }
        return field
    }
}

/// Reads curl command lines: POSIX shell words (quotes, `$'…'`, backslash line continuations)
/// and the curl options that describe a request.
package enum CurlCommandParser {
    /// Parses a command line starting with `curl`.
    /// `query` with what a query may not hold percent-encoded: a space, a quote, a `%` that starts no `%XX`.
    static func validQuery(_ query: String) -> String {
        let bytes = Array(query.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let escape = index + 2 < bytes.count && Hex.value(bytes[index + 1]) != nil && Hex.value(bytes[index + 2]) != nil
            if PercentEncoding.isUnreserved(byte) || "!$&'()*+,;=:@/?".utf8.contains(byte) || (byte == UInt8(ascii: "%") && escape) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), Hex.digit(byte >> 4), Hex.digit(byte & 0x0F)]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    package static func parse(_ commandLine: String) throws(AuthoringError) -> CurlRequest {
        // A command saved by a Windows editor starts with a byte-order mark.
        var words = try ShellWords.split(commandLine.hasPrefix("\u{FEFF}") ? String(commandLine.dropFirst()) : commandLine)
        guard let first = words.first, first == "curl" || first.hasSuffix("/curl") else {
            throw .invalidInput("a curl command line starts with `curl`")
        }
        words.removeFirst()
        return try parse(arguments: words)
    }

    /// Options that take no value and change nothing about the request itself.
    private static let ignoredFlags: Set<String> = [
        "-s", "--silent", "-S", "--show-error", "-L", "--location", "-v", "--verbose", "-i", "--include", "-f", "--fail",
        "--compressed", "--http1.0", "--http1.1", "--http2", "--http2-prior-knowledge", "-#", "--progress-bar", "-N", "--no-buffer",
        "--fail-with-body", "-g", "--globoff", "--location-trusted",
    ]
    /// Options that take a value that changes nothing about the request itself.
    private static let ignoredWithValue: Set<String> = [
        "-o", "--output", "-m", "--max-time", "--connect-timeout", "-w", "--write-out", "--retry", "--max-redirs",
        "-x", "--proxy", "--cacert", "--capath", "--resolve", "--limit-rate",
    ]
    /// Short options that take a value.
    private static let shortWithValue: Set<Character> = ["X", "H", "d", "u", "A", "e", "b", "o", "m", "w", "x", "F"]

    static func parse(arguments: [String]) throws(AuthoringError) -> CurlRequest {
        var method: HTTPMethod?
        var urlText: String?
        var headers: [(name: String, value: String)] = []
        var data: [String] = []
        var form: [CurlFormField] = []
        var get = false
        var head = false
        var insecure = false
        var ignored: [String] = []
        var index = 0
        let words = expandShortFlags(arguments)

        func value(for option: String) throws(AuthoringError) -> String {
            index += 1
            guard index < words.count else { throw .invalidInput("\(option) needs a value") }
            return words[index]
        }

        while index < words.count {
            var word = words[index]
            var attached: String?
            // `-XPOST`, `-H'Accept: x'`: a short option with its value attached.
            if word.count > 2, word.hasPrefix("-"), !word.hasPrefix("--"), let letter = word.dropFirst().first, shortWithValue.contains(letter) {
                attached = String(word.dropFirst(2))
                word = "-\(letter)"
            }
            func argument() throws(AuthoringError) -> String {
                if let attached { return attached }
                return try value(for: word)
            }
            switch word {
            case "-X", "--request":
                let name = try argument().uppercased()
                guard let parsed = HTTPMethod(rawValue: name) else { throw .invalidInput("unsupported method '\(name)'") }
                method = parsed
            case "-H", "--header":
                let header = try argument()
                guard let colon = header.firstIndex(of: ":") else {
                    // `-H 'Name;'` sends an empty header; `-H Name` removes one: neither describes a request here.
                    ignored.append("\(word) \(header)")
                    break
                }
                let name = header[..<colon].trimmedSpaces
                let text = header[header.index(after: colon)...].trimmedSpaces
                guard !name.isEmpty else { throw .invalidInput("the header '\(header)' has no name") }
                headers.append((name, text))
            case "-d", "--data", "--data-ascii", "--data-binary":
                let text = try argument()
                if text.hasPrefix("@") { throw .invalidInput("\(word) \(text) reads a file; paste the body with --data-raw instead") }
                data.append(word == "--data-binary" ? text : text.replacing("\r", with: "").replacing("\n", with: ""))
            case "--data-raw":
                data.append(try argument())
            case "--data-urlencode":
                data.append(urlEncodedData(try argument()))
            case "--json":
                let text = try argument()
                if text.hasPrefix("@") { throw .invalidInput("--json \(text) reads a file; paste the body instead") }
                data.append(text)
                if !headers.contains(where: { Headers.sameName($0.name, "Content-Type") }) { headers.append(("Content-Type", "application/json")) }
                if !headers.contains(where: { Headers.sameName($0.name, "Accept") }) { headers.append(("Accept", "application/json")) }
            case "-u", "--user":
                let credentials = try argument()
                headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
            case "-A", "--user-agent": headers.append(("User-Agent", try argument()))
            case "-e", "--referer": headers.append(("Referer", try argument()))
            case "-b", "--cookie":
                let cookie = try argument()
                guard cookie.contains("=") else { throw .invalidInput("\(word) \(cookie) reads a cookie file; give the cookies as NAME=VALUE") }
                headers.append(("Cookie", cookie))
            case "-F", "--form": form.append(try CurlFormField.parse(try argument(), literal: false))
            case "--form-string": form.append(try CurlFormField.parse(try argument(), literal: true))
            case "-G", "--get": get = true
            case "-I", "--head": head = true
            case "-k", "--insecure": insecure = true
            case "--url": urlText = try argument()
            default:
                if ignoredFlags.contains(word) {
                    ignored.append(word)
                } else if ignoredWithValue.contains(word) {
                    ignored.append("\(word) \(try argument())")
                } else if word.hasPrefix("-"), word != "-" {
                    throw .invalidInput("unsupported curl option \(word)")
                } else if urlText == nil {
                    urlText = word
                } else {
                    throw .invalidInput("more than one URL ('\(urlText ?? "")' and '\(word)'); import one request at a time")
                }
            }
            index += 1
        }
        guard let urlText else { throw .invalidInput("the curl command has no URL") }
        let withScheme = urlText.contains("://") ? urlText : "http://\(urlText)"
        guard var components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            components.host?.isEmpty == false
        else {
            throw .invalidInput("'\(urlText)' is not an http(s) URL")
        }
        if !form.isEmpty, !data.isEmpty { throw .invalidInput("-F and -d cannot be mixed: a body is either a multipart form or data") }
        var body: String? = data.isEmpty ? nil : data.joined(separator: "&")
        if get, let query = body {
            // -d data is written as it goes on the wire; what a query may not hold (a space, a quote)
            // is percent-encoded, as setting percentEncodedQuery traps on it (found by FuzzCurl).
            components.percentEncodedQuery = [components.percentEncodedQuery, Self.validQuery(query)].compactMap { $0 }.joined(separator: "&")
            body = nil
        }
        guard let url = components.url else { throw .invalidInput("'\(urlText)' is not a valid URL") }
        let resolvedMethod = method ?? (head ? .head : (body != nil || !form.isEmpty ? .post : .get))
        // The multipart Content-Type carries a boundary the sender makes: a written one would not match.
        if !form.isEmpty { headers.removeAll { Headers.sameName($0.name, "Content-Type") && $0.value.lowercased().hasPrefix("multipart/") } }
        if body != nil, !headers.contains(where: { Headers.sameName($0.name, "Content-Type") }) {
            // What curl sends with -d.
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        }
        var request = CurlRequest(method: resolvedMethod, url: url, headers: headers, body: body, insecure: insecure, ignoredOptions: ignored)
        request.form = form
        request.moveURLCredentials()
        return request
    }

    /// `-sSL` → `-s -S -L` when every letter is a flag without a value; `-sXPOST` → `-s -XPOST`.
    private static func expandShortFlags(_ words: [String]) -> [String] {
        var result: [String] = []
        let flags: Set<Character> = ["s", "S", "L", "v", "i", "f", "k", "G", "I", "N", "g", "#"]
        for word in words {
            guard word.count > 2, word.hasPrefix("-"), !word.hasPrefix("--"), let second = word.dropFirst().first, flags.contains(second) else {
                result.append(word)
                continue
            }
            var rest = Substring(word.dropFirst())
            while let letter = rest.first, flags.contains(letter) {
                result.append("-\(letter)")
                rest = rest.dropFirst()
            }
            if !rest.isEmpty { result.append("-\(rest)") }
        }
        return result
    }

    /// `--data-urlencode` forms: `content`, `=content`, `name=content` (`@file` forms are not supported).
    private static func urlEncodedData(_ text: String) -> String {
        guard let equals = text.firstIndex(of: "=") else { return FormEncoding.escape(text) }
        let name = text[..<equals]
        let content = FormEncoding.escape(String(text[text.index(after: equals)...]))
        return name.isEmpty ? content : "\(name)=\(content)"
    }
}

/// Splits a command line into words as a POSIX shell does (no expansion): single and double
/// quotes, `$'…'` ANSI-C strings, backslash escapes and line continuations.
enum ShellWords {
    static func split(_ line: String) throws(AuthoringError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        let characters = Array(line)
        var index = 0
        func peek(_ offset: Int = 0) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current); current = ""; inWord = false }
                index += 1
            case "\\":
                if peek(1) == "\n" { index += 2; continue }
                if peek(1) == "\r", peek(2) == "\n" { index += 3; continue }
                guard let next = peek(1) else { throw .invalidInput("the command line ends with a backslash") }
                current.append(next)
                inWord = true
                index += 2
            case "'":
                guard let end = characters[(index + 1)...].firstIndex(of: "'") else { throw .invalidInput("a single quote (') is not closed") }
                current += String(characters[(index + 1)..<end])
                inWord = true
                index = end + 1
            case "\"":
                index += 1
                var closed = false
                while let next = peek() {
                    index += 1
                    if next == "\"" { closed = true; break }
                    if next == "\\", let escaped = peek(), "\"\\$`\n".contains(escaped) {
                        if escaped != "\n" { current.append(escaped) }
                        index += 1
                    } else {
                        current.append(next)
                    }
                }
                guard closed else { throw .invalidInput("a double quote (\") is not closed") }
                inWord = true
            case "$" where peek(1) == "'":
                index += 2
                current += try ansiString(&index, in: characters)
                inWord = true
            default:
                current.append(character)
                inWord = true
                index += 1
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// The body of `$'…'` from `index` (just after the opening quote) to its closing quote.
    private static func ansiString(_ index: inout Int, in characters: [Character]) throws(AuthoringError) -> String {
        var result = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "'" { return result }
            guard character == "\\", index < characters.count else { result.append(character); continue }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            case "'": result.append("'")
            case "\"": result.append("\"")
            case "x", "u":
                let length = escaped == "x" ? 2 : 4
                var hex = ""
                while hex.count < length, index < characters.count, characters[index].isHexDigit {
                    hex.append(characters[index])
                    index += 1
                }
                guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                    throw .invalidInput("a $'…' string has a bad \\\(escaped) escape")
                }
                result.unicodeScalars.append(scalar)
            default:
                result.append("\\")
                result.append(escaped)
            }
        }
        throw .invalidInput("a $'…' string is not closed")
    }
}
