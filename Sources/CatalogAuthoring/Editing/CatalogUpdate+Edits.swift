import Catalog
import DispatcherCore
import JSONSupport

extension CatalogUpdate {
    /// The update writing `edits` into endpoint `id` of `service`'s file, checked: loading the new
    /// text gives `endpoint.applying(edits)` with `edits.removedHeaders` added to its
    /// `omitHeaders`, and every other endpoint as it was.
    ///
    /// Only the lines of what changed are replaced, added or removed: comments, blank lines, key
    /// order and formatting elsewhere stay byte for byte (CRLF files stay CRLF). A block mapping
    /// of query items, headers or form fields is changed key by key (items turned off are removed:
    /// they are not sent); a flow mapping (`{ … }`) is rewritten on its line. A JSON body is written
    /// in flow style on one line when short, in block style when it was. A `bodyFile` endpoint
    /// whose body changed gets the body inline and loses its `bodyFile`.
    ///
    /// Fails, writing nothing, for an endpoint written in flow style, for edits a catalog cannot
    /// hold (a JSON body that is one string, a query name repeated around others) and when the
    /// new text would not load as asked.
    package static func writing(_ edits: EndpointEdits, endpoint id: String, of service: Service) throws(AuthoringError) -> CatalogUpdate {
        guard let endpoint = service.endpoint(id) else { throw .usage("\(service.id) has no endpoint '\(id)'") }
        let expected = try edited(endpoint, with: edits)
        var update = try CatalogUpdate(service: service) { $0 }
        if let inPlace = try update.writingInPlace(expected, current: endpoint, of: service) { return inPlace }
        let before = update.loaded(DiskFileSystem(root: update.directory)).service(service.id)
        let current = try current(id, in: before, file: service.file)
        var editor = CatalogTextEditor(update.text)
        try editor.writeRequest(of: id, from: current, to: expected, file: service.file)
        update.text = editor.text
        try update.check(expected, before: before, serviceID: service.id)
        return update
    }

    /// The update adding endpoint `id` edited by `edits` as a new endpoint `newID` at the end of
    /// `service`'s endpoints: a copy of its text (stub, examples and parameters included) in the
    /// same group, titled `title` or "<old title> (copy)". Refuses an id the service has.
    package static func copying(
        _ id: String, of service: Service, as newID: String, title: String? = nil, with edits: EndpointEdits
    ) throws(AuthoringError) -> CatalogUpdate {
        guard let endpoint = service.endpoint(id) else { throw .usage("\(service.id) has no endpoint '\(id)'") }
        guard service.endpoint(newID) == nil else {
            throw .wouldOverwrite("\(service.id) already has an endpoint '\(newID)'; choose another id for the copy")
        }
        var expected = try edited(endpoint, with: edits)
        expected.id = newID
        expected.title = title ?? "\(endpoint.title) (copy)"
        var update = try CatalogUpdate(service: service) { $0 }
        let before = update.loaded(DiskFileSystem(root: update.directory)).service(service.id)
        var current = try current(id, in: before, file: service.file)
        current.id = newID
        var editor = CatalogTextEditor(update.text)
        try editor.duplicateEndpoint(id, as: newID, file: service.file)
        try editor.writeRequest(of: newID, from: current, to: expected, file: service.file)
        update.text = editor.text
        try update.check(expected, before: before, serviceID: service.id)
        return update
    }

    /// `writing` within the endpoint's own lines, so its cost grows with the endpoint rather than
    /// the file (a one-line change in a 10,000-endpoint file): the endpoint's block is cut out,
    /// checked to decode as the loaded endpoint (else the file changed since: nil), edited, and the
    /// edited block decoded with the rest of the service as context and compared with what was
    /// asked. Every other line stays as it is, so every other endpoint does. Nil when the block
    /// cannot be edited alone (it uses anchors or aliases, or is not a plain block mapping): the
    /// whole file is then read, edited and checked.
    private func writingInPlace(_ expected: CatalogEndpoint, current: CatalogEndpoint, of service: Service) throws(AuthoringError) -> CatalogUpdate? {
        guard let block = Self.endpointBlock(in: text, keyLine: current.location.line, id: current.id) else { return nil }
        let piece = "endpoints:\n" + block.text
        let first = current.location.line - 1
        let fileSystem = DiskFileSystem(root: directory)
        guard let old = CatalogLoader.decodeEndpoints(ofPiece: piece, firstLine: first, of: service, fileSystem: fileSystem),
            old.endpoints.count == 1, !old.diagnostics.contains(where: \.isError), let decoded = old.endpoints.first,
            Self.comparable(decoded) == Self.comparable(current)
        else { return nil }
        var editor = CatalogTextEditor(piece)
        // What the editor refuses (a flow-style endpoint …) is said by the whole file's way, with the file's lines.
        guard (try? editor.writeRequest(of: current.id, from: current, to: expected, file: service.file)) != nil, editor.lines.first == "endpoints:",
            let new = CatalogLoader.decodeEndpoints(ofPiece: editor.text, firstLine: first, of: service, fileSystem: fileSystem)
        else { return nil }
        let errors = new.diagnostics.filter(\.isError)
        guard errors.isEmpty else {
            throw .invalidInput("the change would break \(fileName), so nothing was written:\n" + errors.map(\.description).joined(separator: "\n"))
        }
        var problems = new.endpoints.first.map { Self.differences($0, expected) } ?? ["endpoint '\(expected.id)' would not load"]
        if new.endpoints.count != 1 { problems.append("the edit would change the endpoints around it") }
        guard problems.isEmpty else {
            throw .invalidInput("the edits cannot be written into \(fileName) exactly, so nothing was written: " + problems.joined(separator: "; "))
        }
        var update = self
        update.text = block.before + editor.lines.dropFirst().joined(separator: "\n") + block.after
        return update
    }

    /// The lines of the endpoint whose key is on `keyLine` (1-based), found on the text's bytes
    /// (splitting a large file into lines cost more than the rest of `W`): from the key to the last
    /// line before one with content indented no more than it, and the text before and after them
    /// (the newline ending the block starts `after`). Nil when the key is not there as expected.
    static func endpointBlock(in text: String, keyLine: Int, id: String) -> (before: Substring, text: String, after: Substring)? {
        var text = text
        text.makeContiguousUTF8()
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), hash = UInt8(ascii: "#"), cr = UInt8(ascii: "\r")
        let offsets: (start: Int, end: Int)? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var start = 0
            for _ in 1..<max(keyLine, 1) {
                guard let found = bytes[start...].firstIndex(of: newline) else { return nil }
                start = found + 1
            }
            let lineEnd = bytes[start...].firstIndex(of: newline) ?? bytes.count
            let indentation = bytes[start..<lineEnd].prefix { $0 == space }.count
            let key = String(decoding: bytes[(start + indentation)..<lineEnd], as: UTF8.self)
            guard indentation > 0, key.hasPrefix(YAMLText.key(id) + ":") || key.hasPrefix(id + ":") else { return nil }
            var end = lineEnd
            var next = lineEnd + 1
            while next < bytes.count {
                let nextEnd = bytes[next...].firstIndex(of: newline) ?? bytes.count
                let line = bytes[next..<nextEnd]
                let spaces = line.prefix { $0 == space }.count
                let content = line.dropFirst(spaces)
                if !content.isEmpty, content.first != cr, content.first != hash, spaces <= indentation { break }
                end = nextEnd
                next = nextEnd + 1
            }
            return (start, end)
        } ?? nil
        guard let offsets else { return nil }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: offsets.start)
        let end = utf8.index(utf8.startIndex, offsetBy: offsets.end)
        return (text[..<start], String(text[start..<end]), text[end...])
    }

    /// The endpoint as it must load after the edits.
    private static func edited(_ endpoint: CatalogEndpoint, with edits: EndpointEdits) throws(AuthoringError) -> CatalogEndpoint {
        var expected: CatalogEndpoint
        do {
            expected = try endpoint.applying(edits)
        } catch {
            throw .invalidInput(error.message)
        }
        // A catalog holds a JSON body as YAML, not as the bytes typed (those are what a send carries).
        if case .text(let text, true)? = edits.body, let value = try? JSONValue.parse(text) { expected.body = .json(value) }
        var omitted = endpoint.omittedHeaders
        for name in edits.removedHeaders.sorted() where !omitted.contains(where: { Headers.sameName($0, name) }) {
            omitted.insert(name)
        }
        expected.omittedHeaders = omitted
        return expected
    }

    /// The endpoint as the file on disk says now (what the edit changes lines against).
    private static func current(_ id: String, in service: Service?, file: String) throws(AuthoringError) -> CatalogEndpoint {
        guard let endpoint = service?.endpoint(id) else {
            throw .invalidInput("\(file) as it is now has no endpoint '\(id)' that loads; fix the file first")
        }
        return endpoint
    }

    private func loaded(_ fileSystem: any CatalogFileSystem) -> CatalogSet {
        CatalogLoader.load(fileSystem: fileSystem, source: CatalogSource(origin: .option, directory: directory, displayPath: directory.path))
    }

    /// Loads the new text and compares: the endpoint must be `expected` and every other endpoint
    /// as it was `before`.
    private func check(_ expected: CatalogEndpoint, before: Service?, serviceID: String) throws(AuthoringError) {
        let after = try validate(serviceID: serviceID)
        var problems: [String] = []
        if let written = after.endpoint(expected.id) {
            problems = Self.differences(written, expected)
        } else {
            problems = ["endpoint '\(expected.id)' would not load"]
        }
        // By id once: looking each one up in the list made a 10,000-endpoint file quadratic.
        let written = Dictionary(after.endpoints.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for endpoint in before?.endpoints ?? [] where endpoint.id != expected.id {
            if written[endpoint.id].map(Self.comparable) != Self.comparable(endpoint) {
                problems.append("endpoint '\(endpoint.id)' would change too (does it share an anchor with the edited one?)")
            }
        }
        guard problems.isEmpty else {
            throw .invalidInput("the edits cannot be written into \(fileName) exactly, so nothing was written: " + problems.joined(separator: "; "))
        }
    }

    /// The endpoint without what moves or is set per request: its place in the file and the origin of its headers.
    private static func comparable(_ endpoint: CatalogEndpoint) -> CatalogEndpoint {
        var endpoint = endpoint
        endpoint.location = SourceLocation(file: "", line: 1, column: 1)
        // A handler's name says where it is written (`retry on 429 (shop.yaml:12)`): lines move.
        endpoint.handlers = endpoint.handlers.map { HandlerRule(matcher: $0.matcher, action: $0.action, name: "") }
        endpoint.headers = Headers(endpoint.headers.map { ($0.name, $0.value) }, origin: .endpoint)
        endpoint.omittedHeaders = Set(endpoint.omittedHeaders.map { $0.lowercased() })
        return endpoint
    }

    /// What differs between the endpoint as it would load and as it was asked for, for people.
    private static func differences(_ written: CatalogEndpoint, _ expected: CatalogEndpoint) -> [String] {
        let (written, expected) = (comparable(written), comparable(expected))
        guard written != expected else { return [] }
        var problems: [String] = []
        func compare(_ what: String, _ found: String, _ asked: String) {
            if found != asked { problems.append("\(what) would be \(found), not \(asked)") }
        }
        compare("the method", written.method.rawValue, expected.method.rawValue)
        compare("the path", written.path, expected.path)
        compare("the query", describe(written.query), describe(expected.query))
        compare("the headers", describe(written.headers), describe(expected.headers))
        compare("the omitted headers", written.omittedHeaders.sorted().joined(separator: ", "), expected.omittedHeaders.sorted().joined(separator: ", "))
        compare("the body", describe(written.body), describe(expected.body))
        if problems.isEmpty { problems.append("its other keys (title, parameters, stub, examples …) would change") }
        return problems
    }

    private static func describe(_ query: [QueryItem]) -> String {
        guard !query.isEmpty else { return "empty" }
        let items = query.map { item -> String in
            guard let value = item.value else { return item.name }
            return "\(item.name)=\(value)"
        }
        return "'" + items.joined(separator: "&") + "'"
    }

    private static func describe(_ headers: Headers) -> String {
        headers.isEmpty ? "none" : headers.map { "'\($0.name): \($0.value)'" }.joined(separator: ", ")
    }

    private static func describe(_ body: RequestBody) -> String {
        switch body {
        case .none: "none"
        case .json(let value): "JSON \(value.compactText)"
        case .text(let text, _): "text \(YAMLText.quoted(text))"
        case .form(let items): "form '\(FormEncoding.encode(items))'"
        case .data(let data, _): "a file of \(data.count) bytes"
        case .file(let path, _): "the file \(path)"
        case .multipart(let fields): "a multipart form of \(fields.count) field\(fields.count == 1 ? "" : "s")"
        }
    }
}
