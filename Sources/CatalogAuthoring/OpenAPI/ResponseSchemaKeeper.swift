import ContractCheck
import FoundationEssentials
import JSONSchema
import JSONSupport

/// Keeps the response schemas of an OpenAPI document's operations for contract checks: a file of
/// `ResponseContract`'s format holding, per endpoint id, status and JSON media type, the schema
/// as the document writes it. `$ref`s to `#/components/schemas/NAME` stay as they are (the
/// schemas they name are copied under `components`); every other `$ref` (a pointer elsewhere in
/// the document, another file) is followed at import and its target copied under `references`.
/// Only what the responses reach is copied.
struct ResponseSchemaKeeper {
    let document: OpenAPIDocument
    let documentName: String
    private var endpoints: [(key: String, value: JSONValue)] = []
    private var components: [(key: String, value: JSONValue)] = []
    private var references: [(key: String, value: JSONValue)] = []
    /// Each `$ref` met, with what it is rewritten to.
    private var targets: [String: String] = [:]
    /// Schemas whose `$ref`s are still to be rewritten: where they go and the schema.
    private var pending: [(component: Bool, name: String, schema: JSONValue)] = []
    /// Definitions copied so far (components and references), and references among them.
    private var definitionCount = 0
    private var referenceCount = 0
    private(set) var notes: [ImportNote] = []

    /// More schemas than this are not copied (a hostile document could name millions).
    static let maximumDefinitions = 20_000

    init(document: OpenAPIDocument, documentName: String) {
        self.document = document
        self.documentName = documentName
    }

    /// Keeps the schemas of an operation's `responses` for the endpoint `id`.
    mutating func keep(endpoint id: String, responses: JSONValue?) {
        var statuses: [(key: String, value: JSONValue)] = []
        for (status, value) in responses?.members ?? [] {
            guard let response = document.resolve(value) else { continue }
            var media: [(key: String, value: JSONValue)] = []
            for (type, content) in document.resolve(response.member("content"))?.members ?? [] {
                let lowered = type.lowercased()
                guard lowered.contains("json") || lowered == "*/*", let schema = content.member("schema") else { continue }
                media.append((lowered, rewrite(schema)))
            }
            if !media.isEmpty { statuses.append((status, .object(JSONObject(media)))) }
        }
        if !statuses.isEmpty { endpoints.append((id, .object(JSONObject(statuses)))) }
    }

    /// The file's bytes, nil when no operation has a JSON response schema.
    mutating func file() -> Data? {
        guard !endpoints.isEmpty else { return nil }
        while let next = pending.popLast() {
            let rewritten = rewrite(next.schema)
            if next.component { components.append((next.name, rewritten)) } else { references.append((next.name, rewritten)) }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("format", .string(ResponseContract.format)),
            ("dialect", .string(SchemaDialect.openAPI(version: document.version).rawValue)),
            ("source", .string(documentName)),
            ("endpoints", .object(JSONObject(endpoints))),
        ]
        if !components.isEmpty { members.append(("components", ["schemas": .object(JSONObject(components))])) }
        if !references.isEmpty { members.append(("references", .object(JSONObject(references)))) }
        return Data((JSONValue.object(JSONObject(members)).prettyText() + "\n").utf8)
    }

    /// `schema` with its `$ref`s pointing into the kept file.
    private mutating func rewrite(_ schema: JSONValue, depth: Int = 0) -> JSONValue {
        guard depth < 256 else { return .object([:]) }
        switch schema {
        case .object(let object):
            return .object(
                JSONObject(
                    object.map { member in
                        if member.key == "$ref", case .string(let reference) = member.value { return (member.key, .string(target(for: reference))) }
                        return (member.key, rewrite(member.value, depth: depth + 1))
                    }))
        case .array(let elements):
            return .array(elements.map { rewrite($0, depth: depth + 1) })
        default:
            return schema
        }
    }

    /// Where `reference` points in the kept file, copying what it names (once).
    private mutating func target(for reference: String) -> String {
        if let known = targets[reference] { return known }
        let prefix = "#/components/schemas/"
        let full = definitionCount >= Self.maximumDefinitions
        definitionCount += 1
        if reference.hasPrefix(prefix), !reference.dropFirst(prefix.count).contains("/"),
            let schema = OpenAPIDocument.pointer(String(reference.dropFirst(1)), in: document.root), !full
        {
            targets[reference] = reference
            pending.append((true, JSONPointer.tokens(reference: reference)?.last ?? "", schema))
            return reference
        }
        referenceCount += 1
        let name = String(referenceCount)
        let kept = "#/references/\(name)"
        targets[reference] = kept
        if !full, let schema = document.resolve(.object(["$ref": .string(reference)])) {
            pending.append((false, name, schema))
        } else {
            notes.append(ImportNote(.info, at: documentName, "the schema $ref '\(reference)' cannot be followed; contract checks accept any value in its place"))
            pending.append((false, name, .object(["description": .string("\(reference) could not be followed when the catalog was imported")])))
        }
        return kept
    }
}
