import FoundationEssentials
import JSONSupport
import SystemSupport
import TextSupport

/// A catalog file being written by an importer (curl, OpenAPI): the service, its environments,
/// groups and endpoints, and fixture files, rendered as YAML in the format of environments/README.md.
package struct CatalogDraft: Sendable {
    /// An environment.
    package struct Environment: Sendable {
        /// Its name.
        package var name: String
        /// `development`, `staging`, `production` or a label.
        package var type: String
        /// The base URL.
        package var baseURL: String
        /// What the environment is, written as a comment.
        package var comment: String?
        /// Common headers.
        package var headers: [(String, String)] = []
        /// Values of placeholders in this environment.
        package var variables: [(String, String)] = []
        /// Harmless stand-ins for secrets (never for production).
        package var secretDefaults: [(String, String)] = []
        /// `never`, `immediate` … when not the default.
        package var fixtures: String?
        /// Turns TLS verification off (`curl -k`).
        package var insecure = false

        /// Makes an environment.
        package init(name: String, type: String = "development", baseURL: String, comment: String? = nil) {
            self.name = name
            self.type = type
            self.baseURL = baseURL
            self.comment = comment
        }
    }

    /// A group of endpoints sharing headers.
    package struct Group: Sendable {
        /// The id.
        package var id: String
        /// A title.
        package var title: String?
        /// A description.
        package var description: String?
        /// The headers (none is allowed: a group can only gather).
        package var headers: [(String, String)]

        /// Makes a group.
        package init(id: String, title: String? = nil, headers: [(String, String)]) {
            self.id = id
            self.title = title
            self.headers = headers
        }
    }

    /// A request body.
    package enum Body: Sendable {
        /// A JSON document.
        case json(JSONValue)
        /// Text sent as written.
        case text(String)
        /// A url-encoded form.
        case form([(String, String)])
        /// A file beside the catalog, sent as it is.
        case file(String)
        /// A GraphQL operation (`graphql:`), sent as GraphQL's JSON; its errors inside a 2xx are errors.
        case graphql(query: String, variables: JSONValue, operationName: String?)
        /// A `multipart/form-data` form (`multipart:`): text fields and files.
        case multipart([MultipartDraftField])
    }

    /// A field of a multipart form as a catalog writes it.
    package struct MultipartDraftField: Sendable, Hashable {
        /// The field's name.
        package var name: String
        /// Its text (nil for a file field).
        package var value: String?
        /// Its file, relative to the catalog or absolute (nil for a text field).
        package var file: String?
        /// The filename sent, when not the file's own.
        package var filename: String?
        /// Its Content-Type, when given.
        package var contentType: String?

        /// Makes a field.
        package init(name: String, value: String? = nil, file: String? = nil, filename: String? = nil, contentType: String? = nil) {
            self.name = name
            self.value = value
            self.file = file
            self.filename = filename
            self.contentType = contentType
        }

        /// `{ name: photo, file: photo.png, contentType: image/png }`.
        var flow: String {
            var pairs = [("name", name)]
            if let value { pairs.append(("value", value)) }
            if let file { pairs.append(("file", file)) }
            if let filename { pairs.append(("filename", filename)) }
            if let contentType { pairs.append(("contentType", contentType)) }
            return YAMLText.flowMapping(pairs)
        }
    }

    /// A fixture: status, headers, and a body file or inline JSON.
    package struct Example: Sendable {
        /// The name (`default` for the stub).
        package var name: String
        /// A sentence.
        package var description: String?
        /// The status.
        package var status: Int
        /// Headers.
        package var headers: [(String, String)] = []
        /// A fixture file, relative to the catalog.
        package var bodyFile: String?
        /// An inline JSON body.
        package var body: JSONValue?

        /// Makes an example.
        package init(name: String, description: String? = nil, status: Int, bodyFile: String? = nil, body: JSONValue? = nil) {
            self.name = name
            self.description = description
            self.status = status
            self.bodyFile = bodyFile
            self.body = body
        }

        /// The example's keys, one per line, not indented.
        package var lines: [String] {
            var lines: [String] = []
            if let description { lines.append("description: \(YAMLText.scalar(description))") }
            lines.append("status: \(status)")
            if !headers.isEmpty { lines.append("headers: \(YAMLText.flowMapping(headers))") }
            if let bodyFile { lines.append("bodyFile: \(YAMLText.scalar(bodyFile))") }
            if let body { lines.append("body: \(YAMLText.flow(body))") }
            return lines
        }
    }

    /// An endpoint.
    package struct Endpoint: Sendable {
        /// The id.
        package var id: String
        /// A title.
        package var title: String?
        /// A description.
        package var description: String?
        /// The method.
        package var method: String
        /// The path, with `{{placeholders}}`.
        package var path: String
        /// The group.
        package var group: String?
        /// Query items (nil value: a bare name).
        package var query: [(String, String?)] = []
        /// Headers.
        package var headers: [(String, String)] = []
        /// Default values of placeholders.
        package var parameters: [(String, String)] = []
        /// The body.
        package var body: Body?
        /// The stub.
        package var stub: Example?
        /// Named examples.
        package var examples: [Example] = []
        /// Lines written as a YAML comment above the endpoint (what the catalog cannot say, such as scripts).
        package var comment: [String] = []
        /// Optional query items, headers, form fields and JSON body members the document describes
        /// but that are not sent: written as commented-out lines the user can turn on.
        package var optionalQuery: [(String, String)] = []
        package var optionalHeaders: [(String, String)] = []
        package var optionalForm: [(String, String)] = []
        package var optionalBody: [(String, JSONValue)] = []
        /// Values taken from its responses for later requests (`captures:`), selector text by name.
        package var captures: [(String, String)] = []
        /// What its responses should be (`expect:`), from the source's tests.
        package var expect = ExpectDraft()
        /// Where the endpoint comes from in the source document (`FILE POINTER` or `FILE:LINE`).
        package var source: String?
        /// `expectsBody:` when not the default (a GET's empty 2xx is `noData` unless false).
        package var expectsBody: Bool?
        /// Headers of its environment or group it does not send (`omitHeaders:`).
        package var omitHeaders: [String] = []

        /// Makes an endpoint.
        package init(id: String, method: String, path: String) {
            self.id = id
            self.method = method
            self.path = path
        }

        /// The endpoint's keys, one per line, not indented (nested keys indented by `step`).
        package func lines(step: Int = 2) -> [String] {
            let pad = String(repeating: " ", count: step)
            var lines: [String] = []
            if let title { lines.append("title: \(YAMLText.scalar(title))") }
            if let description {
                if let block = YAMLText.literalBlock(description, indent: pad) {
                    lines.append("description: \(block[0])")
                    lines += block.dropFirst()
                } else {
                    lines.append("description: \(YAMLText.blockScalar(description))")
                }
            }
            if let group { lines.append("group: \(YAMLText.scalar(group))") }
            if method != "GET" { lines.append("method: \(method)") }
            lines.append("path: \(YAMLText.scalar(path))")
            lines += Self.textMapping("query", Self.grouped(query), optional: optionalQuery, pad: pad, flow: false)
            lines += Self.textMapping("headers", headers.map { ($0.0, [$0.1]) }, optional: optionalHeaders, pad: pad, flow: true)
            if !omitHeaders.isEmpty { lines.append("omitHeaders: [" + omitHeaders.map(YAMLText.scalar).joined(separator: ", ") + "]") }
            if !parameters.isEmpty { lines.append("parameters: \(YAMLText.flowMapping(parameters))") }
            switch body {
            case .json(let value):
                if case .object(let object) = value, !optionalBody.isEmpty {
                    let members = object.map { (YAMLText.quoted($0.key), YAMLText.flow($0.value)) }
                    lines += Self.mapping("body", members, optional: optionalBody.map { (YAMLText.quoted($0.0), YAMLText.flow($0.1)) }, pad: pad)
                } else {
                    lines.append("body: \(YAMLText.flow(value))")
                }
            case .text(let text): lines.append("body: \(YAMLText.quoted(text))")
            case .form(let items): lines += Self.textMapping("form", Self.grouped(items.map { ($0.0, Optional($0.1)) }), optional: optionalForm, pad: pad, flow: true, empty: true)
            case .file(let path): lines.append("bodyFile: \(YAMLText.scalar(path))")
            case .multipart(let fields):
                lines.append("multipart:")
                lines += fields.map { "\(pad)- \($0.flow)" }
            case .graphql(let query, let variables, let operationName):
                lines.append("graphql:")
                if let block = YAMLText.literalBlock(query, indent: pad + pad) {
                    lines.append("\(pad)query: \(block[0])")
                    lines += block.dropFirst()
                } else {
                    lines.append("\(pad)query: \(YAMLText.quoted(query))")
                }
                if variables != .object([:]) { lines.append("\(pad)variables: \(YAMLText.flow(variables))") }
                if let operationName { lines.append("\(pad)operationName: \(YAMLText.scalar(operationName))") }
            case nil: break
            }
            if let expectsBody { lines.append("expectsBody: \(expectsBody)") }
            if !captures.isEmpty { lines.append("captures: \(YAMLText.flowMapping(captures))") }
            lines += expect.lines(pad: pad)
            if let stub { lines += ["stub:"] + stub.lines.map { pad + $0 } }
            if !examples.isEmpty {
                lines.append("examples:")
                for example in examples {
                    lines.append("\(pad)\(YAMLText.key(example.name)):")
                    lines += example.lines.map { pad + pad + $0 }
                }
            }
            return lines
        }

        /// Every text that may hold placeholders (path, query, headers, parameters, body) passed through `transform`.
        package mutating func mapTexts(_ transform: (String) -> String) {
            path = transform(path)
            query = query.map { ($0.0, $0.1.map(transform)) }
            headers = headers.map { ($0.0, transform($0.1)) }
            parameters = parameters.map { ($0.0, transform($0.1)) }
            func json(_ value: JSONValue) -> JSONValue {
                switch value {
                case .string(let text): .string(transform(text))
                case .array(let elements): .array(elements.map(json))
                case .object(let object): .object(JSONObject(object.map { ($0.key, json($0.value)) }))
                default: value
                }
            }
            switch body {
            case .json(let value): body = .json(json(value))
            case .text(let text): body = .text(transform(text))
            case .form(let items): body = .form(items.map { ($0.0, transform($0.1)) })
            case .graphql(let query, let variables, let name): body = .graphql(query: query, variables: json(variables), operationName: name)
            case .multipart(let fields):
                body = .multipart(fields.map { field in
                    var field = field
                    field.value = field.value.map(transform)
                    return field
                })
            case .file, nil: break
            }
        }

        /// Pairs with repeated names gathered (`tags: [a, b]`), in the order names first appear.
        static func grouped(_ pairs: [(String, String?)]) -> [(String, [String?])] {
            var result: [(String, [String?])] = []
            var index: [String: Int] = [:]
            for (name, value) in pairs {
                if let position = index[name] {
                    result[position].1.append(value)
                } else {
                    index[name] = result.count
                    result.append((name, [value]))
                }
            }
            return result
        }

        /// `key: { … }` (or a block mapping when `flow` is false), with optional entries as
        /// commented-out lines of a block mapping; nothing when there is neither. `empty` writes
        /// `key: {}` when there is nothing at all (an empty form is still a form).
        static func textMapping(
            _ key: String, _ entries: [(String, [String?])], optional: [(String, String)], pad: String, flow: Bool, empty: Bool = false
        ) -> [String] {
            func value(_ values: [String?]) -> String {
                values.count == 1 ? values[0].map(YAMLText.scalar) ?? "null" : "[" + values.map { $0.map(YAMLText.scalar) ?? "null" }.joined(separator: ", ") + "]"
            }
            let written = entries.map { (YAMLText.key($0.0), value($0.1)) }
            if entries.isEmpty, optional.isEmpty { return empty ? ["\(key): {}"] : [] }
            if optional.isEmpty, flow { return ["\(key): { " + written.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"] }
            return mapping(key, written, optional: optional.map { (YAMLText.key($0.0), YAMLText.scalar($0.1)) }, pad: pad)
        }

        /// A block mapping of written keys and values; optional entries commented out after them.
        static func mapping(_ key: String, _ entries: [(String, String)], optional: [(String, String)], pad: String) -> [String] {
            var lines: [String] = []
            if entries.isEmpty {
                lines.append("\(key): {}  # optional entries below: replace {} with the lines you want, without their #")
            } else {
                lines.append("\(key):")
                lines += entries.map { "\(pad)\($0.0): \($0.1)" }
            }
            if !optional.isEmpty, !entries.isEmpty { lines.append("\(pad)# optional (remove the # to send):") }
            lines += optional.map { "\(pad)# \($0.0): \($0.1)" }
            return lines
        }
    }

    /// An error rule: responses matching `status` (and `when`, a JSONPath) are the error `error`.
    package struct ErrorRule: Sendable {
        /// Shown as the error's source.
        package var name: String?
        /// `2xx`, `404` …
        package var status: String
        /// A JSONPath that must match the body.
        package var when: String?
        /// The error kind (built-in or custom).
        package var error: String
        /// A JSONPath to the message.
        package var message: String?

        /// Makes a rule.
        package init(name: String? = nil, status: String, when: String? = nil, error: String, message: String? = nil) {
            self.name = name
            self.status = status
            self.when = when
            self.error = error
            self.message = message
        }

        /// The rule as one flow mapping.
        var line: String {
            var pairs: [(String, String)] = []
            if let name { pairs.append(("name", name)) }
            pairs.append(("status", status))
            if let when { pairs.append(("when", when)) }
            pairs.append(("error", error))
            if let message { pairs.append(("message", message)) }
            return "- " + YAMLText.flowMapping(pairs)
        }
    }

    /// The service id.
    package var service: String
    /// A title.
    package var title: String?
    /// A description.
    package var description: String?
    /// A comment for the top of the file (where it came from).
    package var header: String?
    /// Values of placeholders for every environment.
    package var variables: [(String, String)] = []
    /// Error rules, in order.
    package var errors: [ErrorRule] = []
    /// The environments (the first is the default).
    package var environments: [Environment] = []
    /// Groups.
    package var groups: [Group] = []
    /// Endpoints.
    package var endpoints: [Endpoint] = []
    /// The file of response schemas kept for contract checks (`schemas:`), relative to the catalog folder.
    package var schemas: String?
    /// Fixture files by path relative to the catalog folder.
    package var fixtures: [(path: String, data: Data)] = []
    /// The permission bits of fixtures copied from the document's folder (others are written 0644).
    package var fileModes: [String: UInt16] = [:]
    /// What the user should know (secrets to set, what was left out).
    package var notes: [ImportNote] = []
    /// The notes as text (`SOURCE: message`).
    package var messages: [String] { notes.map(\.description) }

    /// Makes a draft.
    package init(service: String) {
        self.service = service
    }

    /// The catalog file's text.
    package var yaml: String { rendered.text }

    /// A part of the catalog file, for finding what a loader's diagnostic is about.
    enum Part: Hashable {
        case file, variables, environment(Int), group(Int), errors, endpoint(Int)
    }

    /// The catalog file's text, with the (1-based) lines each part takes.
    var rendered: (text: String, parts: [(part: Part, lines: ClosedRange<Int>)]) {
        var lines: [String] = []
        var parts: [(part: Part, lines: ClosedRange<Int>)] = []
        func mark(_ part: Part, from start: Int) {
            if lines.count > start { parts.append((part, (start + 1)...lines.count)) }
        }
        if let header { lines += header.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { String("# \(YAMLText.commentText(String($0)))".trimmingSuffix { $0 == " " }) } }
        lines.append("service: \(YAMLText.scalar(service))")
        if let title { lines.append("title: \(YAMLText.scalar(title))") }
        if let description {
            if let block = YAMLText.literalBlock(description, indent: "  ") {
                lines.append("description: \(block[0])")
                lines += block.dropFirst()
            } else {
                lines.append("description: \(YAMLText.blockScalar(description))")
            }
        }
        if let schemas { lines.append("schemas: \(YAMLText.scalar(schemas))  # response schemas from the document, for contract checks") }
        if !variables.isEmpty {
            let start = lines.count
            lines += ["", "variables:"] + variables.map { "  \(YAMLText.key($0.0)): \(YAMLText.scalar($0.1))" }
            mark(.variables, from: start)
        }
        lines += ["", "environments:"]
        for (index, environment) in environments.enumerated() {
            let start = lines.count
            lines.append("  \(YAMLText.key(environment.name)):" + (environment.comment.map { "  # \(YAMLText.commentText($0.split(whereSeparator: \.isNewline).joined(separator: " ")))" } ?? ""))
            lines.append("    type: \(YAMLText.scalar(environment.type))")
            lines.append("    baseURL: \(YAMLText.scalar(environment.baseURL))")
            if let fixtures = environment.fixtures { lines.append("    fixtures: \(fixtures)") }
            if !environment.headers.isEmpty { lines.append("    headers: \(YAMLText.flowMapping(environment.headers))") }
            if !environment.variables.isEmpty {
                lines.append("    variables:")
                lines += environment.variables.map { "      \(YAMLText.key($0.0)): \(YAMLText.scalar($0.1))" }
            }
            if !environment.secretDefaults.isEmpty {
                lines.append("    secretDefaults:                # stand-ins so stub mode works; set real values as $APIEXPLORER_SECRET_NAME or in .env")
                lines += environment.secretDefaults.map { "      \(YAMLText.key($0.0)): \(YAMLText.scalar($0.1))" }
            }
            if environment.insecure { lines.append("    tls: { insecure: true }") }
            mark(.environment(index), from: start)
        }
        if !groups.isEmpty {
            lines += ["", "groups:"]
            for (index, group) in groups.enumerated() {
                let start = lines.count
                lines.append("  \(YAMLText.key(group.id)):")
                if let title = group.title { lines.append("    title: \(YAMLText.scalar(title))") }
                if let description = group.description { lines.append("    description: \(YAMLText.blockScalar(description))") }
                if group.headers.isEmpty, group.title == nil, group.description == nil { lines.append("    headers: {}") }
                if !group.headers.isEmpty { lines.append("    headers:") }
                lines += group.headers.map { "      \(YAMLText.key($0.0)): \(YAMLText.scalar($0.1))" }
                mark(.group(index), from: start)
            }
        }
        if !errors.isEmpty {
            let start = lines.count
            lines += ["", "errors:"] + errors.map { "  " + $0.line }
            mark(.errors, from: start)
        }
        lines += ["", "endpoints:"]
        for (index, endpoint) in endpoints.enumerated() {
            if index > 0 { lines.append("") }
            let start = lines.count
            // A line break inside a comment line would end the comment: every piece gets its own `#`.
            lines += endpoint.comment.flatMap { $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) }
                .map { String("  # \(YAMLText.commentText(String($0)))".trimmingSuffix { $0 == " " }) }
            lines.append("  \(YAMLText.key(endpoint.id)):")
            lines += endpoint.lines().map { "    " + $0 }
            mark(.endpoint(index), from: start)
        }
        return (lines.joined(separator: "\n") + "\n", parts)
    }

    /// Writes the catalog file and its fixtures into `folder` (each atomically); existing files
    /// are replaced only when `force`. Returns the catalog file's URL.
    @discardableResult
    package func write(into folder: URL, fileName: String? = nil, force: Bool) throws(AuthoringError) -> URL {
        let file = folder.appendingPathComponent(fileName ?? "\(service).yaml")
        let targets = [(file, Data(yaml.utf8))] + fixtures.map { (folder.appendingPathComponent($0.path), $0.data) }
        if !force {
            let existing = targets.map(\.0).filter { FileManager.default.fileExists(atPath: $0.path) }
            if !existing.isEmpty {
                throw .wouldOverwrite("\(existing.map(\.path).joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); --force replaces")
            }
        }
        do throws(SystemError) {
            for (url, data) in targets.reversed() {
                try AtomicFile.createDirectory(url.deletingLastPathComponent(), permissions: 0o755)
                try AtomicFile.write(data, to: url)
            }
        } catch {
            throw AuthoringError(error)
        }
        return file
    }
}
