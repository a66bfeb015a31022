import DispatcherCore
import FoundationEssentials
import TextSupport
import JSONSupport

/// Walks a Postman collection and builds its catalogs: one service per URL base, in the order
/// the bases first appear (the first takes the collection's id).
struct PostmanCollection {
    /// A folder on the way to a request, with what it passes down.
    struct Folder {
        /// The folder's key among the collection's folders (its position), for its group.
        var key: String
        var name: String
        var description: String?
        /// The auth that applies inside (its own, else its parent's); nil: none.
        var auth: JSONValue?
        var variables: [PostmanVariable]
        /// Where the folder is in the document.
        var location: String
    }

    /// A service being built: the requests sharing one URL base.
    struct ServiceDraft {
        var base: String
        var draft: CatalogDraft
        var endpointIDs = UniqueNames(taken: [])
        var groupIDs = UniqueNames(taken: [])
        /// Group id by folder key.
        var groups: [String: String] = [:]
    }

    let root: JSONValue
    let name: String
    let environments: [PostmanEnvironment]
    var serviceID = ""
    var header = ""
    var notes: [ImportNote] = []
    var services: [ServiceDraft] = []
    var secrets = SecretBook(service: "")
    /// Variables whose values are secrets: written as `{{secret.NAME}}` wherever they are used.
    var secretVariables: Set<String> = []
    let collectionVariables: [PostmanVariable]
    var folderCount = 0
    /// The tool the document comes from, named in comments and notes.
    var tool = "Postman"
    /// The document's name, for the places notes name.
    var documentName = "the collection"
    /// Environment names are kept as written (`.http` clients' `dev`, `Local`), not lowercased.
    var keepsEnvironmentNames = false
    /// The files a request body may name: only those in the document's folder.
    var files = DocumentFiles.none
    /// How an environment file is named in comments and notes.
    var environmentLabel = "Postman environment"
    /// Body files read for the request being added, to be written beside the catalog.
    var bodyFiles: [(path: String, data: Data)] = []
    /// Folders' scripts as comment lines, for the top of the catalog file.
    var folderScripts: [String] = []
    /// Their permission bits, by path.
    var bodyFileModes: [String: UInt16] = [:]

    init(root: JSONValue, name: String, environments: [PostmanEnvironment]) {
        self.root = root
        self.name = name
        self.environments = environments
        collectionVariables = PostmanVariable.list(root.member("variable"))
    }

    mutating func build() -> CatalogImport {
        secrets = SecretBook(service: serviceID)
        findSecretVariables()
        var fileComment = [header]
        fileComment += scriptComment(root.member("event"), owner: "the collection", at: DocumentPlace.pointer(documentName, []))
        walk(root.member("item")?.elements ?? [], folders: [], pointer: ["item"])
        fileComment += folderScripts
        var drafts: [CatalogDraft] = []
        for service in services {
            var draft = service.draft
            draft.header = fileComment.joined(separator: "\n")
            draft.title = name
            draft.description = Self.description(root.member("info")?.member("description"))
            draft.variables = collectionVariables.filter { !secretVariables.contains($0.key) }.map { ($0.key, $0.value) }
            draft.environments = environmentDrafts(for: service)
            drafts.append(draft)
        }
        if drafts.isEmpty { notes.append("the collection has no requests: nothing to import") }
        notes += secrets.notes
        notes += unresolvedPlaceholderNotes(drafts)
        var seen: Set<ImportNote> = []
        return CatalogImport(drafts: drafts, notes: notes.filter { seen.insert($0).inserted })
    }

    /// Variables whose values are credentials, by what they are: typed `secret` (a private
    /// environment file), used as a credential of an auth block, or inside the value of a
    /// credential's header, query item, form field or JSON member (`Authorization: Bearer
    /// {{token}}`, `"password": "{{pw}}"`); a variable named like a credential too, unless it is
    /// used in a URL's path (`/tokens/{{token_id}}` is an id, and keeps its value).
    private mutating func findSecretVariables() {
        let all = collectionVariables + environments.flatMap(\.values)
        var inPath: Set<String> = []
        var asCredential: Set<String> = []
        func variables(in text: String) -> [String] {
            guard text.contains("{{") else { return [] }
            // Plain variables only: not secrets, generators or request references (`login.response.body.token`).
            return Template(text).placeholders.filter { !$0.hasPrefix("secret.") && !$0.hasPrefix("$") && !$0.contains(".response.") && !$0.contains(".request.") && !$0.contains(" ") }
        }
        func visit(_ item: JSONValue) {
            for auth in [item.member("auth"), item.member("request")?.member("auth")].compactMap({ $0 }) {
                for (key, value) in Self.authParameters(auth) where !Self.authSettings.contains(key) {
                    asCredential.formUnion(variables(in: value))
                }
            }
            if let request = item.member("request") {
                let url = Self.rawURL(request.text != nil ? request : request.member("url")) ?? ""
                let path = url.prefix { $0 != "?" && $0 != "#" }
                inPath.formUnion(variables(in: String(path)))
                for (name, value) in RequestURL.queryItems(Substring(url.drop { $0 != "?" }.dropFirst())) where CredentialName.isCredentialQuery(name) {
                    asCredential.formUnion(variables(in: value ?? ""))
                }
                for header in request.member("header")?.elements ?? [] where CredentialName.isCredential(header.member("key")?.text ?? "") {
                    asCredential.formUnion(variables(in: header.member("value").map(PostmanVariable.text) ?? ""))
                }
                let body = request.member("body")
                for field in (body?.member("urlencoded")?.elements ?? []) + (body?.member("formdata")?.elements ?? [])
                where CredentialName.isCredentialQuery(field.member("key")?.text ?? "") {
                    asCredential.formUnion(variables(in: field.member("value").map(PostmanVariable.text) ?? ""))
                }
                if let raw = body?.member("raw")?.text, raw.contains("{{") {
                    // `"password": "{{pw}}"` (templated JSON need not parse).
                    for match in raw.matches(of: /"([^"\\]+)"\s*:\s*"?\{\{\s*([^{}\s]+)\s*\}\}/) where CredentialName.isCredential(String(match.output.1)) {
                        asCredential.insert(String(match.output.2))
                    }
                }
            }
            item.member("item")?.elements.forEach(visit)
        }
        visit(root)
        for variable in all where variable.isSecret || asCredential.contains(variable.key) || (CredentialName.isCredential(variable.key) && !inPath.contains(variable.key)) {
            secretVariables.insert(variable.key)
        }
        secretVariables.formUnion(asCredential)
    }

    /// `name` when `text` is exactly `{{name}}`.
    static func wholePlaceholder(_ text: String) -> String? {
        let trimmed = text.trimmed
        guard trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}"), trimmed.count > 4 else { return nil }
        let inner = trimmed.dropFirst(2).dropLast(2).trimmed
        return inner.contains("{") || inner.contains("}") ? nil : inner
    }

    /// Text with each secret variable's placeholder replaced by its `{{secret.NAME}}`.
    mutating func rewrite(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        var result = text
        for variable in secretVariables where result.contains("{{\(variable)}}") {
            result = result.replacing("{{\(variable)}}", with: secrets.placeholder(variable))
        }
        return result
    }

    private mutating func walk(_ items: [JSONValue], folders: [Folder], pointer: [String]) {
        for (index, item) in items.enumerated() {
            let location = item.member("apiexplorerSource")?.text ?? DocumentPlace.pointer(documentName, pointer + [String(index)])
            if let children = item.member("item")?.elements {
                folderCount += 1
                let parentAuth = folders.last.map(\.auth) ?? root.member("auth")
                let folderName = item.member("name")?.text ?? "folder"
                let folder = Folder(
                    key: "\(folderCount)", name: folderName, description: Self.description(item.member("description")),
                    auth: Self.effectiveAuth(item.member("auth"), inherited: parentAuth),
                    variables: PostmanVariable.list(item.member("variable")), location: location)
                folderScripts += scriptComment(item.member("event"), owner: "folder '\(folderName)'", at: location)
                walk(children, folders: folders + [folder], pointer: pointer + [String(index), "item"])
            } else if item.member("request") != nil {
                addRequest(item, folders: folders, location: location)
            }
        }
    }

    /// The auth that applies: `own` unless it is missing or `inherit`.
    static func effectiveAuth(_ own: JSONValue?, inherited: JSONValue??) -> JSONValue? {
        guard let own, own != .null, own.member("type")?.text != "inherit" else { return inherited ?? nil }
        return own.member("type")?.text == "noauth" ? nil : own
    }

    /// A description, whole (Postman writes a string or `{content, type}`; its Markdown is kept as written).
    static func description(_ value: JSONValue?) -> String? {
        guard let text = value?.text ?? value?.member("content")?.text else { return nil }
        let whole = text.replacing("\r\n", with: "\n").trimmed
        return whole.isEmpty ? nil : whole
    }

    /// The service for a URL base, made on first use.
    mutating func serviceIndex(for base: String) -> Int {
        if let index = services.firstIndex(where: { $0.base == base }) { return index }
        var id = serviceID
        if !services.isEmpty {
            let label = Self.wholePlaceholder(base) ?? URL(string: base)?.host?.split(separator: ".").first.map(String.init) ?? base
            var taken = UniqueNames(taken: Set(services.map(\.draft.service)))
            id = taken.claim("\(serviceID)-\(Identifier.make(label.lowercased(), fallback: "other"))")
            notes.append("requests to \(base) are in service \(id) (a service has one base URL per environment)")
        }
        services.append(ServiceDraft(base: base, draft: CatalogDraft(service: id)))
        return services.count - 1
    }

    /// The group for the innermost folder, made on first use in the service.
    mutating func group(for folder: Folder, in index: Int) -> String {
        if let id = services[index].groups[folder.key] { return id }
        let id = services[index].groupIDs.claim(Identifier.make(folder.name.lowercased(), fallback: "folder"))
        let auth = folder.auth.map { authorization($0, owner: "folder '\(folder.name)'", at: folder.location) }
        var group = CatalogDraft.Group(id: id, title: folder.name, headers: auth?.headers ?? [])
        group.description = folder.description
        services[index].draft.groups.append(group)
        services[index].groups[folder.key] = id
        return id
    }
}
