import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

extension PostmanCollection {
    /// One request of the collection becomes an endpoint of the service for its URL's base.
    mutating func addRequest(_ item: JSONValue, folders: [Folder], location: String) {
        let title = item.member("name")?.text ?? "request"
        guard let request = item.member("request") else { return }
        // A request may be only a URL string (v2.0 allows it).
        let method = (request.member("method")?.text ?? "GET").uppercased()
        guard HTTPMethod(rawValue: method) != nil else {
            notes.append(ImportNote(.skipped, at: location, "'\(title)' was left out: catalogs do not send \(method)"))
            return
        }
        guard let raw = Self.rawURL(request.text != nil ? request : request.member("url")), let url = RequestURL(raw) else {
            notes.append(ImportNote(.skipped, at: location, "'\(title)' was left out: its URL is missing or not absolute (\(Self.rawURL(request.member("url")) ?? "none"))"))
            return
        }
        let index = serviceIndex(for: url.base)
        let service = services[index].draft.service
        // A name without ASCII letters (`发送短信`) gives no id: the method and path do.
        let words = url.path.split(separator: "/").filter { !$0.hasPrefix("{{") }.suffix(2).map(String.init)
        let fallback = Identifier.camelCase([method.lowercased()] + (words.isEmpty ? ["root"] : words), fallback: "request")
        let given = item.member("apiexplorerID")?.text
        let base = given.flatMap { Identifier.make($0, fallback: "") == $0 ? $0 : nil } ?? Identifier.camelCase([given ?? title], fallback: fallback)
        // A name repeated in other folders (`Create` in Users and in Teams) is qualified by its
        // folders, innermost first (`teamsCreate`), rather than numbered.
        let names = folders.map(\.name)
        let qualified = names.indices.reversed().map { Identifier.camelCase(names[$0...] + [base], fallback: base) }
        let id = services[index].endpointIDs.claim(base, alternatives: qualified)
        var endpoint = CatalogDraft.Endpoint(id: id, method: method, path: rewrite(url.path))
        endpoint.source = location
        endpoint.title = title
        endpoint.description = Self.description(request.member("description"))
        addQuery(request.member("url"), parsed: url, to: &endpoint)
        addHeaders(request.member("header"), at: location, to: &endpoint)
        addAuth(request.member("auth"), folders: folders, serviceIndex: index, to: &endpoint)
        if let body = request.member("body"), body != .null { addBody(body, service: service, at: location, to: &endpoint) }
        services[index].draft.fixtures += bodyFiles
        services[index].draft.fileModes.merge(bodyFileModes) { $1 }
        bodyFiles = []
        bodyFileModes = [:]
        addParameters(request.member("url"), folders: folders, to: &endpoint)
        addResponses(item.member("response")?.elements ?? [], serviceIndex: index, to: &endpoint)
        endpoint.comment = scriptComment(item.member("event"), owner: "endpoint \(service)/\(id)", at: location)
        // Only Postman's scripts speak pm.*; other tools' handlers come in through here too.
        if tool == "Postman" { addTests(item.member("event"), title: title, at: location, to: &endpoint) }
        services[index].draft.endpoints.append(endpoint)
    }

    /// The URL as text: a string, or an object's `raw` (else rebuilt from its parts).
    static func rawURL(_ url: JSONValue?) -> String? {
        guard let url else { return nil }
        if let text = url.text { return text }
        if let raw = url.member("raw")?.text, !raw.isEmpty { return raw }
        let host = url.member("host").map { $0.text ?? $0.elements.compactMap(\.text).joined(separator: ".") } ?? ""
        let path = url.member("path").map { $0.text ?? $0.elements.compactMap(\.text).joined(separator: "/") } ?? ""
        guard !host.isEmpty else { return nil }
        let scheme = url.member("protocol")?.text.map { "\($0)://" } ?? ""
        return scheme + host + (path.isEmpty ? "" : "/" + path)
    }

    /// Query items from the URL object's `query` (which knows disabled ones), else from the raw URL.
    private mutating func addQuery(_ url: JSONValue?, parsed: RequestURL, to endpoint: inout CatalogDraft.Endpoint) {
        var items: [(String, String?)] = parsed.query
        if case .array(let list)? = url?.member("query") {
            items = list.compactMap { item in
                guard let key = item.member("key")?.text, item.member("disabled") != .bool(true) else { return nil }
                return (key, item.member("value")?.text)
            }
        }
        for (name, value) in items {
            guard let value else {
                endpoint.query.append((name, nil))
                continue
            }
            endpoint.query.append((name, rewrite(secrets.value(named: name, value))))
        }
    }

    /// Enabled headers; a repeated name joined into one (HTTP allows it), a name that is not a
    /// header's left out, each with a note.
    private mutating func addHeaders(_ headers: JSONValue?, at location: String, to endpoint: inout CatalogDraft.Endpoint) {
        for header in headers?.elements ?? [] {
            guard let name = header.member("key")?.text, header.member("disabled") != .bool(true) else { continue }
            let value = secretHeaderValue(name: name, value: header.member("value").map(PostmanVariable.text) ?? "")
            guard HARImporter.isHeaderName(name) else {
                notes.append(ImportNote(.repaired, at: location, "\(endpoint.id): the header '\(name)' was left out: it is not a header name"))
                continue
            }
            if let index = endpoint.headers.firstIndex(where: { $0.0.lowercased() == name.lowercased() }) {
                endpoint.headers[index].1 += (name.lowercased() == "cookie" ? "; " : ", ") + value
                notes.append(ImportNote(.repaired, at: location, "\(endpoint.id): the repeated header \(name) was joined into one"))
                continue
            }
            endpoint.headers.append((name, value))
        }
    }

    /// A header value with literal credentials replaced by secrets (placeholders are kept).
    mutating func secretHeaderValue(name: String, value: String) -> String {
        guard CredentialName.isCredential(name), !value.isEmpty, !value.contains("{{") else { return rewrite(value) }
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization" { return secrets.authorization(value, label: name) }
        return secrets.placeholder(name, identity: value)
    }

    /// The request's own auth on the endpoint; an inherited one through its folder's group (or
    /// on the endpoint at the top level, where there is no group).
    private mutating func addAuth(_ own: JSONValue?, folders: [Folder], serviceIndex index: Int, to endpoint: inout CatalogDraft.Endpoint) {
        let inherited = folders.last.map(\.auth) ?? root.member("auth")
        let effective = Self.effectiveAuth(own, inherited: inherited)
        if let folder = folders.last, effective == folder.auth {
            endpoint.group = group(for: folder, in: index)
            if let auth = effective, Self.authorizationHasQuery(auth) {
                endpoint.query += authorization(auth, owner: "folder '\(folder.name)'", at: folder.location).query
            }
            return
        }
        if let folder = folders.last, folder.auth == nil { endpoint.group = group(for: folder, in: index) }
        guard let effective else { return }
        let result = authorization(effective, owner: "endpoint \(endpoint.id)", at: endpoint.source)
        endpoint.headers.removeAll { header in result.headers.contains { $0.0.lowercased() == header.0.lowercased() } }
        endpoint.headers += result.headers
        endpoint.query += result.query
    }

    /// Path variables (`:id` with its value), then the folders' variables the endpoint uses.
    private mutating func addParameters(_ url: JSONValue?, folders: [Folder], to endpoint: inout CatalogDraft.Endpoint) {
        for variable in url?.member("variable")?.elements ?? [] {
            guard let key = variable.member("key")?.text else { continue }
            endpoint.parameters.append((key, rewrite(variable.member("value").map(PostmanVariable.text) ?? "")))
        }
        let text = endpoint.lines().joined(separator: "\n")
        for variable in folders.reversed().flatMap(\.variables) where text.contains("{{\(variable.key)}}") {
            guard !endpoint.parameters.contains(where: { $0.0 == variable.key }), !secretVariables.contains(variable.key) else { continue }
            endpoint.parameters.append((variable.key, variable.value))
        }
    }

    /// Saved examples: the first 2xx is the stub, the others named examples.
    private mutating func addResponses(_ responses: [JSONValue], serviceIndex index: Int, to endpoint: inout CatalogDraft.Endpoint) {
        let service = services[index].draft.service
        var names = UniqueNames(taken: ["default"])
        for response in responses {
            let status = response.member("code")?.intValue ?? 200
            let headers = (response.member("header")?.elements ?? []).compactMap { header in
                header.member("key")?.text.map { ($0, header.member("value").map(PostmanVariable.text) ?? "") }
            }
            let saved = ImportedResponse(status: status, headers: headers, body: response.member("body")?.text)
            let isStub = endpoint.stub == nil && (200..<300).contains(status)
            let title = response.member("name")?.text
            let name = isStub ? "default" : names.claim(Identifier.camelCase([title ?? ""], fallback: ImportedResponse.name(for: status)))
            let made = saved.example(named: name, description: isStub ? title : nil, service: service, endpoint: endpoint.id)
            if let fixture = made.fixture { services[index].draft.fixtures.append(fixture) }
            if isStub { endpoint.stub = made.example } else { endpoint.examples.append(made.example) }
        }
    }

    /// The `pm.test` checks of its test scripts as `expect:`; every line with a statement not
    /// understood is named in the notes with its place (the item, the script, the line).
    mutating func addTests(_ events: JSONValue?, title: String, at location: String, to endpoint: inout CatalogDraft.Endpoint) {
        for (number, event) in (events?.elements ?? []).enumerated() where event.member("listen")?.text == "test" {
            let exec = event.member("script")?.member("exec")
            let source = exec?.text.map { [$0] } ?? exec?.elements.compactMap(\.text) ?? []
            let lines = source.flatMap { $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init) }
            let (expect, unknown) = PostmanScriptChecks.read(lines)
            let place = "\(location)/event/\(number)/script/exec"
            for (subject, comparisons) in expect.checks {
                for (comparison, value) in comparisons { endpoint.expect.add(subject, comparison, value) }
            }
            if !expect.isEmpty {
                notes.append(ImportNote(.repaired, at: place, "'\(title)': \(expect.checks.count == 1 ? "a check" : "\(expect.checks.count) checks") of its test script became expect:"))
            }
            for (line, text) in unknown {
                notes.append(ImportNote(.info, at: "\(place)/\(line - 1)", "`\(text)` is not a check apiexplorer reads; it stays a comment"))
            }
        }
    }

    /// The script lines of an `event` list as comment lines, and a note for each script.
    mutating func scriptComment(_ events: JSONValue?, owner: String, at location: String?) -> [String] {
        var lines: [String] = []
        for (number, event) in (events?.elements ?? []).enumerated() {
            let kind = event.member("listen")?.text == "prerequest" ? "pre-request script" : "test script"
            let exec = event.member("script")?.member("exec")
            let source = exec?.text.map { [$0] } ?? exec?.elements.compactMap(\.text) ?? []
            let scriptLines = source.flatMap { $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init) }
            guard scriptLines.contains(where: { !$0.trimmed.isEmpty }) else { continue }
            // The same words wherever it is: 400 requests with a script make one note naming their places.
            let place = location.map { $0.hasSuffix("/") ? "\($0)event/\(number)" : "\($0)/event/\(number)" }
            let article = tool.hasPrefix("HTTP") || "AEIOU".contains(tool.prefix(1)) ? "an" : "a"
            notes.append(ImportNote(.info, at: place, "\(article) \(tool) \(kind) is not run; it is kept as a comment in the catalog"))
            lines.append("\(tool) \(kind) of \(owner) (not run by apiexplorer):")
            lines += scriptLines.map { "  " + $0.replacing("\r", with: "") }
        }
        return lines
    }
}

extension ImportedResponse {
    /// `notFound` for 404 …, `status422` for codes without a kind of their own.
    static func name(for status: Int) -> String {
        switch ErrorKind(status: status) {
        case .clientError, .serverError, .unknown: "status\(status)"
        case let kind: kind.name
        }
    }
}
