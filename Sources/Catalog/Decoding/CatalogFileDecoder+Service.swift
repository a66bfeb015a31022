import DispatcherCore
import FoundationEssentials
import YAMLSupport

extension CatalogFileDecoder {
    static let serviceKeys = ["service", "title", "description", "variables", "environments", "groups", "auth", "errors", "handlers", "results", "mock", "cookies", "endpoints", "allowOutsidePaths", "secrets",
        "schemas", "flows", "descriptors",
    ]
    static let groupKeys = ["title", "description", "headers"]

    /// Reads a whole catalog file. Errors drop the smallest part they affect: an endpoint or an
    /// environment with an error is left out; an error in what every endpoint shares (the service
    /// id, variables, groups, error rules, auth) drops the service. `scalarsWithBraces` are the
    /// file's values holding a `{` (the composer marks them), checked for unclosed placeholders.
    func decodeService(_ root: YAMLNode, directory: URL?, scalarsWithBraces: [YAMLNode]) -> Service? {
        let moved = [
            "baseURL": "an environment under 'environments'", "method": "an endpoint under 'endpoints'",
            "path": "an endpoint under 'endpoints'", "headers": "an environment or a group", "stub": "an endpoint under 'endpoints'",
        ]
        guard let entries = entries(root, "a catalog file", allowed: Self.serviceKeys, moved: moved) else { return nil }
        var id = PathText.removingExtension(fileName)
        var idNode = root
        var title: String?
        var summary: String?
        var variables: [String: String] = [:]
        var groups: [EndpointGroup] = []
        var errorRules: [ErrorRule] = []
        var handlers: [HandlerRule]?
        var results: [HandlerRule] = []
        var handlersNode: YAMLNode?
        var parts: [String: Entry] = [:]
        var secretVariables: [String: String] = [:]

        for entry in entries {
            switch entry.key {
            case "service":
                if let value = nonEmptyText(entry.value, "'service'"), identifier(value, at: entry.value, "service") {
                    id = value
                    idNode = entry.value
                }
            case "title": title = text(entry.value, "'title'")
            case "description": summary = text(entry.value, "'description'")
            case "variables": variables = textDictionary(entry.value, "'variables'") ?? [:]
            case "groups": groups = decodeGroups(entry.value)
            case "errors": errorRules = decodeErrorRules(entry.value)
            case "handlers":
                handlers = decodeHandlerRules(entry.value, "handler")
                handlersNode = entry.keyNode
            case "results": results = decodeHandlerRules(entry.value, "result handler", results: true)
            case "allowOutsidePaths": allowsOutsidePaths = boolean(entry.value, "'allowOutsidePaths'") ?? false
            case "secrets": secretVariables = decodeSecretVariables(entry.value)
            default: parts[entry.key] = entry
            }
        }
        if !entries.contains(where: { $0.key == "service" }), !identifier(id, at: root, "service (taken from the file name)") {
            return nil
        }
        warnAboutUnclosedPlaceholders(in: scalarsWithBraces)
        checkResponseReferences(in: scalarsWithBraces, service: id)

        var environments: [Environment] = []
        var secretDefaults: [String: [String: String]] = [:]
        var environmentHandlers: [String: [HandlerRule]] = [:]
        var environmentResults: [String: [HandlerRule]] = [:]
        if let entry = parts["environments"] {
            for environment in decodeEnvironments(entry.value, groups: groups) {
                environments.append(environment.environment)
                environmentHandlers[environment.environment.name] = environment.handlers
                environmentResults[environment.environment.name] = environment.results
                if !environment.secretDefaults.isEmpty { secretDefaults[environment.environment.name] = environment.secretDefaults }
            }
            if environments.isEmpty, case .mapping(let mapping) = entry.value.content, mapping.isEmpty {
                error("'environments' is empty: a service needs at least one environment", at: entry.value)
            }
        } else {
            error("a catalog file needs 'environments' with at least one environment (name, baseURL)", at: root)
        }

        if let largest = environments.map(\.maximumBodySize).max() { bodyFileLimit = largest }
        var endpoints: [CatalogEndpoint] = []
        if let entry = parts["endpoints"] {
            endpoints = decodeEndpoints(entry.value, serviceID: id, groups: groups, environments: environments)
        }
        checkTemplatedFilePaths(&endpoints, environments: environments, variables: variables)

        var authRefresh: AuthRefreshRule?
        var digest: DigestCredentials?
        var oauth2: OAuth2Settings?
        if let entry = parts["auth"] {
            (authRefresh, digest, oauth2) = decodeAuth(entry.value, endpoints: &endpoints, environments: environments)
        }

        let refreshes = (handlers ?? []) + endpoints.flatMap(\.handlers) + environmentHandlers.values.flatMap { $0 }
        if authRefresh == nil, refreshes.contains(where: { $0.action == .refresh }) {
            error("a handler says refresh, but the service has no auth.refresh rule to refresh with", at: handlersNode ?? root)
        }
        // After auth: a flow's steps name endpoints as they finally are.
        let flows = parts["flows"].map { decodeFlows($0.value, endpoints: endpoints) } ?? []
        var mockSession: MockSessionRule?
        if let entry = parts["mock"] { mockSession = decodeMockSection(entry, hasRefresh: authRefresh != nil) }
        // Shared parts with errors (or no environment left) make the whole service unusable.
        let sharedFailed = errorCount > isolatedErrorCount
        guard !sharedFailed, !environments.isEmpty else {
            if !environments.isEmpty || parts["environments"] != nil {
                error("service '\(id)' was not loaded because of the errors above", at: idNode)
            }
            return nil
        }
        var service = Service(
            id: id, title: title, summary: summary, file: file, directory: directory, variables: variables,
            environments: environments, secretDefaults: secretDefaults, groups: groups, endpoints: endpoints,
            errorRules: errorRules, authRefresh: authRefresh, digest: digest, handlers: handlers, resultRules: results,
            environmentHandlers: environmentHandlers, environmentResultRules: environmentResults, diagnostics: diagnostics)
        service.catalogID = CatalogID(file: fileName, in: directory)
        service.mockSession = mockSession
        service.oauth2 = oauth2
        service.allowsOutsidePaths = allowsOutsidePaths
        service.secretVariables = secretVariables
        service.flows = flows
        if let entry = parts["cookies"] { service.persistsCookies = decodeCookiesSection(entry.value) }
        if let entry = parts["schemas"] { service.responseSchemas = decodeResponseSchemas(entry.value) }
        if let entry = parts["descriptors"] { service.descriptorSet = decodeDescriptorSet(entry.value) }
        if service.descriptorSet == nil, let first = endpoints.first(where: { $0.rpc != nil }) {
            warning("endpoint '\(first.id)' is a gRPC method, but the service names no 'descriptors:' file: its messages cannot be encoded (stub mode still answers)", at: root)
        }
        return service
    }

    /// The largest response schemas file read (a published API's components fit in a few MB).
    static let maximumSchemasFileSize = 32 << 20

    /// The file of response schemas (`schemas: petstore.schemas.json`). A file that cannot be read
    /// is a warning, not an error: the catalog works without it, only contract checks need it.
    func decodeResponseSchemas(_ node: YAMLNode) -> ResponseSchemasFile? {
        guard let path = nonEmptyText(node, "'schemas'") else { return nil }
        let access = fileSystem.access(path, allowingOutside: readsOutsidePaths)
        switch access {
        case .readable(let size?) where size > Self.maximumSchemasFileSize:
            let shown = ByteCount.format(size, over: Self.maximumSchemasFileSize)
            warning("the schemas file is \(shown.size), larger than \(shown.limit); responses are not checked against it: '\(path)'", at: node)
            return nil
        case .readable:
            guard let data = try? fileSystem.contents(of: path, atMost: Self.maximumSchemasFileSize) else {
                warning("the schemas file cannot be read; responses are not checked against it: '\(path)'", at: node)
                return nil
            }
            return ResponseSchemasFile(path: path, data: data)
        case .missing:
            warning("the schemas file does not exist; responses are not checked against it: '\(path)'\(siblingHint(for: path))", at: node)
        default:
            warning("the schemas file \(problem(of: access)); responses are not checked against it: '\(path)'", at: node)
        }
        return nil
    }

    /// The largest descriptor set read (as a protoset's import is bounded).
    static let maximumDescriptorSetSize = 64 << 20

    /// The gRPC descriptor set (`descriptors: routeguide.protoset`), confined to the folder and
    /// bounded; one that cannot be read is an error: the gRPC endpoints need it to encode.
    func decodeDescriptorSet(_ node: YAMLNode) -> DescriptorSetFile? {
        guard let path = nonEmptyText(node, "'descriptors' (a descriptor set file: protoc --include_imports --descriptor_set_out)") else { return nil }
        let access = fileSystem.access(path, allowingOutside: readsOutsidePaths)
        switch access {
        case .readable(let size?) where size > Self.maximumDescriptorSetSize:
            let shown = ByteCount.format(size, over: Self.maximumDescriptorSetSize)
            error("the descriptor set is \(shown.size), larger than \(shown.limit): '\(path)'", at: node)
        case .readable:
            guard let data = try? fileSystem.contents(of: path, atMost: Self.maximumDescriptorSetSize) else {
                error("the descriptor set cannot be read: '\(path)'", at: node)
                return nil
            }
            return DescriptorSetFile(path: path, data: data)
        case .missing:
            error("the descriptor set does not exist: '\(path)'\(siblingHint(for: path))", at: node)
        default:
            error("the descriptor set \(problem(of: access)): '\(path)'", at: node)
        }
        return nil
    }

    /// A request file named with placeholders (`bodyFile: "{{f}}"`) is filled with the values the
    /// catalog gives (the endpoint's parameters, each environment's and the service's variables) and
    /// must stay in the folder: a value leading out is an error here, where the file says it, and
    /// the endpoint is left out. A placeholder the catalog gives no value (a run-time value, a
    /// secret, a capture) cannot be proven confined: a warning says so, and it is checked when sent.
    func checkTemplatedFilePaths(_ endpoints: inout [CatalogEndpoint], environments: [Environment], variables: [String: String]) {
        guard !templatedFilePaths.isEmpty else { return }
        var rejected: Set<String> = []
        // The endpoints naming each templated path, found in one pass: an imported catalog has a
        // dozen such paths over a thousand endpoints.
        let templated = Set(templatedFilePaths.map(\.path))
        var naming: [String: [Int]] = [:]
        for index in endpoints.indices {
            switch endpoints[index].body {
            case .file, .multipart:
                for path in Set(endpoints[index].bodyFilePaths) where templated.contains(path) { naming[path, default: []].append(index) }
            default: continue
            }
        }
        for (path, node) in templatedFilePaths {
            // The endpoint the node is written in: the last one starting before it (several
            // endpoints may name the same path; each is told about at its own line, once).
            let position = (node.line, node.column)
            let index = (naming[path] ?? []).last { (endpoints[$0].location.line, endpoints[$0].location.column) <= position }
            for index in index.map({ [$0] }) ?? [] {
                let endpoint = endpoints[index]
                var unknown: [String] = []
                for environment in environments {
                    let values = variables.merging(environment.variables) { $1 }.merging(endpoint.parameters) { $1 }
                    guard let rendered = try? Template(path).render({ name in
                        if let value = values[name] { return value }
                        if !unknown.contains(name) { unknown.append(name) }
                        return nil
                    }) else { continue }
                    let access = fileSystem.access(rendered, allowingOutside: readsOutsidePaths)
                    if case .outside = access {
                        error(
                            "the file '\(path)' of endpoint '\(endpoint.id)' becomes '\(rendered)' in environment '\(environment.name)', which "
                                + "\(problem(of: access)); the endpoint was left out", at: node)
                        rejected.insert(endpoint.id)
                        break
                    }
                }
                if !unknown.isEmpty, !rejected.contains(endpoint.id), !readsOutsidePaths {
                    warning(
                        "the file '\(path)' of endpoint '\(endpoint.id)' is named by \(unknown.map { "{{\($0)}}" }.joined(separator: ", ")), which the "
                            + "catalog gives no value: it cannot be proven to stay in the catalog folder here, and is checked when the request is sent",
                        at: node)
                }
            }
        }
        if !rejected.isEmpty {
            isolatedErrorCount += rejected.count
            endpoints.removeAll { rejected.contains($0.id) }
        }
    }

    static let secretKeys = ["env"]

    /// `secrets: { NAME: { env: VARIABLE } }`: the environment variable `{{secret.NAME}}` is read
    /// from once the catalog is trusted (besides `APIEXPLORER_SECRET_NAME`).
    func decodeSecretVariables(_ node: YAMLNode) -> [String: String] {
        guard let entries = entries(node, "'secrets'") else { return [:] }
        var variables: [String: String] = [:]
        for entry in entries {
            let subject = "secret '\(entry.key)'"
            guard let fields = self.entries(entry.value, subject, allowed: Self.secretKeys) else { continue }
            require(Self.secretKeys, in: fields, of: entry.keyNode, subject)
            guard let field = fields.first, let variable = nonEmptyText(field.value, "'env' of \(subject)") else { continue }
            guard CatalogFileDecoder.isEnvironmentVariableName(variable) else {
                error("'env' of \(subject) must be an environment variable's name (letters, digits and _), not '\(variable)'", at: field.value)
                continue
            }
            variables[entry.key] = variable
        }
        return variables
    }

    /// `GITHUB_TOKEN`, `_x1`: what a shell accepts as a variable name.
    static func isEnvironmentVariableName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    static let mockKeys = ["session"]
    static let cookiesKeys = ["persist"]

    /// `cookies: { persist: true }`: the live jars are kept between runs.
    func decodeCookiesSection(_ node: YAMLNode) -> Bool {
        guard let fields = entries(node, "'cookies'", allowed: Self.cookiesKeys) else { return false }
        return fields.first { $0.key == "persist" }.flatMap { boolean($0.value, "'persist' of 'cookies'") } ?? false
    }
    static let mockSessionKeys = ["expiresAfter"]

    /// `mock: { session: { expiresAfter: 3 } }`.
    func decodeMockSection(_ entry: Entry, hasRefresh: Bool) -> MockSessionRule? {
        guard let fields = entries(entry.value, "'mock'", allowed: Self.mockKeys), let session = fields.first else { return nil }
        guard hasRefresh else {
            error("mock.session issues tokens from the auth.refresh endpoint, and the service has no auth.refresh rule", at: session.keyNode)
            return nil
        }
        var rule = MockSessionRule()
        if isNull(session.value) { return rule }
        guard let parts = entries(session.value, "'mock.session'", allowed: Self.mockSessionKeys) else { return nil }
        for part in parts {
            if let uses = integer(part.value, "mock.session.expiresAfter", in: 1...1_000_000) { rule.expiresAfter = uses }
        }
        return rule
    }

    // MARK: Groups

    func decodeGroups(_ node: YAMLNode) -> [EndpointGroup] {
        guard let entries = entries(node, "'groups'") else { return [] }
        var groups: [EndpointGroup] = []
        for entry in entries {
            guard identifier(entry.key, at: entry.keyNode, "group") else { continue }
            let subject = "group '\(entry.key)'"
            if isNull(entry.value) {
                groups.append(EndpointGroup(id: entry.key))
                continue
            }
            guard let fields = self.entries(entry.value, subject, allowed: Self.groupKeys) else { continue }
            var group = EndpointGroup(id: entry.key)
            for field in fields {
                switch field.key {
                case "title": group.title = text(field.value, "the title of \(subject)") ?? group.title
                case "headers":
                    group.headers = headers(field.value, "the headers of \(subject)", origin: .group(entry.key)) ?? Headers()
                    warnAboutLiteralCredentials(in: field.value, "the headers of \(subject)")
                default: break  // description: for people only
                }
            }
            groups.append(group)
        }
        return groups
    }
}
