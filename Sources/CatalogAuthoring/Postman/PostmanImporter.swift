import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Turns a Postman collection (format v2.0 or v2.1) and Postman environment files into catalogs:
/// folders become groups, requests endpoints, collection variables service variables, auth
/// blocks headers holding `{{secret.NAME}}`, saved example responses stubs and named examples,
/// and each environment file an environment. Requests are grouped by the base of their URL
/// (`{{baseUrl}}`, or an origin): one service per base. Secret values are never written.
/// Pre-request and test scripts are not run: they are kept as comments and listed in the notes.
package enum PostmanImporter {
    /// A Postman environment file (`{"name": …, "values": [{"key", "value", "type", "enabled"}]}`).
    package struct EnvironmentFile: Sendable {
        /// Shown in notes when the file has no name of its own.
        package var fileName: String
        /// The file's bytes.
        package var data: Data

        /// Makes one.
        package init(fileName: String, data: Data) {
            self.fileName = fileName
            self.data = data
        }
    }

    /// The catalogs for a collection's bytes and its environment files; `service` overrides the
    /// id taken from the collection's name; `files` gives the files that `file` bodies and
    /// form-data fields name (only those in the collection's folder: others are marked missing
    /// with a note). Pure apart from `files`.
    package static func catalog(
        collection data: Data, documentName: String, environments: [EnvironmentFile] = [], service: String? = nil,
        files: DocumentFiles = .none
    ) throws(AuthoringError) -> CatalogImport {
        let root = try ImportedDocument.json(data, what: "the Postman collection \(documentName)")
        guard case .object = root, let info = root.member("info"), root.member("item") != nil else {
            if root.member("requests") != nil {
                throw .invalidInput("\(documentName) is a Postman Collection v1; export it again as Collection v2.1 (Postman: Export, v2.1)")
            }
            throw .invalidInput("\(documentName) is not a Postman collection (no 'info' and 'item')")
        }
        let schema = info.member("schema")?.text ?? ""
        if !schema.isEmpty, !schema.contains("/v2.") {
            throw .invalidInput("\(documentName) uses the Postman schema \(schema); Collection v2.0 and v2.1 are understood")
        }
        let name = info.member("name")?.text ?? "postman"
        var environmentFiles: [PostmanEnvironment] = []
        for file in environments {
            environmentFiles.append(try PostmanEnvironment(file))
        }
        var collection = PostmanCollection(root: root, name: name, environments: environmentFiles)
        collection.serviceID = service ?? Identifier.make(name.lowercased(), fallback: "postman")
        collection.header = "Imported from \(documentName) (Postman collection \"\(name)\") by `apiexplorer import postman`."
        collection.documentName = documentName
        collection.files = files
        return collection.build()
    }
}

/// A variable of a collection, folder or environment file.
struct PostmanVariable {
    var key: String
    var value: String
    /// Typed `secret` in Postman.
    var isSecret: Bool

    /// The enabled variables of a `variable` (collection, folder) or `values` (environment) list.
    static func list(_ value: JSONValue?) -> [PostmanVariable] {
        (value?.elements ?? []).compactMap { item in
            guard let key = item.member("key")?.text ?? item.member("id")?.text, !key.isEmpty,
                item.member("disabled") != .bool(true), item.member("enabled") != .bool(false)
            else { return nil }
            return PostmanVariable(key: key, value: item.member("value").map(PostmanVariable.text) ?? "", isSecret: item.member("type")?.text == "secret")
        }
    }

    /// A value as text (Postman stores numbers and booleans too).
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        default: value.compactText
        }
    }
}

/// An environment file, read.
struct PostmanEnvironment {
    var name: String
    var values: [PostmanVariable]

    init(name: String, values: [PostmanVariable]) {
        self.name = name
        self.values = values
    }

    init(_ file: PostmanImporter.EnvironmentFile) throws(AuthoringError) {
        let root = try ImportedDocument.json(file.data, what: "the Postman environment \(file.fileName)")
        guard let values = root.member("values"), case .array = values else {
            throw .invalidInput("\(file.fileName) is not a Postman environment file (no 'values' list)")
        }
        let stem = file.fileName.split(separator: "/").last.map { String($0.prefix { $0 != "." }) } ?? file.fileName
        name = root.member("name")?.text ?? stem
        self.values = PostmanVariable.list(values)
    }
}
