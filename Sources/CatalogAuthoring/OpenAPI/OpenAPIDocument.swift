import Catalog
import FoundationEssentials
import JSONSupport
import TextSupport

/// An OpenAPI 3.0, 3.1 or 3.2 document (or Swagger 2.0, read into the shape of 3.0), JSON or YAML,
/// read as plain JSON values with `$ref` followed on demand. Lenient on purpose: an importer should take the documents people have,
/// and published documents often break a rule that a strict model would refuse whole.
struct OpenAPIDocument {
    /// The whole document.
    let root: JSONValue
    /// The `openapi` version (`3.0.3`, `3.1.0` …), or `Swagger 2.0`.
    let version: String
    /// The other files `$ref`s name (`schemas/pet.yaml`), by path relative to the document, with
    /// their own references rewritten relative to the document too.
    private(set) var externals: [String: JSONValue] = [:]

    /// Notes about reading it (a Swagger 2.0 document converted, what it could not say).
    private(set) var notes: [ImportNote] = []

    /// Reads a document's bytes: JSON when the first character is `{`, YAML otherwise. A Swagger
    /// 2.0 document is read into the shape of OpenAPI 3.0 (`Swagger2Converter`).
    /// `files` gives the files its `$ref`s name, relative to the document (nil: none are
    /// followed; only files in the document's folder are read).
    init(data: Data, documentName: String = "the document", files: DocumentFiles? = nil) throws(AuthoringError) {
        var raw = try ImportedDocument.jsonOrYAML(data, what: "the OpenAPI document")
        guard case .object(let object) = raw else { throw .invalidInput("the document is not a mapping of OpenAPI fields") }
        let swagger = object["swagger"]?.text
        if swagger != nil { raw = Swagger2Converter.expandingShortReferences(raw) }
        var externals: [String: JSONValue] = [:]
        var referenceNotes: [ImportNote] = []
        if let files {
            (externals, referenceNotes) = ExternalReferences.load(
                from: raw, documentName: documentName, files: files, parse: { data, path in try? ImportedDocument.jsonOrYAML(data, what: path) })
        }
        if let swagger {
            guard swagger.hasPrefix("2.") else { throw .invalidInput("Swagger \(swagger) is not supported (Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 are)") }
            let original = raw
            var converter = Swagger2Converter(documentName: documentName) { value in
                Self.follow(value, root: original, externals: externals)
            }
            let converted = converter.convert(raw)
            try self.init(root: converted, version: "3.0.3", swagger: swagger)
            notes.append(ImportNote(.info, "\(documentName) is a Swagger \(swagger) document: it was read as OpenAPI 3.0 (swagger2openapi's rules)"))
            notes += converter.notes
        } else {
            try self.init(root: raw, version: nil, swagger: nil)
        }
        self.externals = externals
        notes += referenceNotes
    }

    private init(root: JSONValue, version: String?, swagger: String?) throws(AuthoringError) {
        guard case .object(let object) = root else { throw .invalidInput("the document is not a mapping of OpenAPI fields") }
        guard let version = version ?? object["openapi"].flatMap(\.text) else { throw .invalidInput("the document has no 'openapi' (or 'swagger') version field") }
        guard version.hasPrefix("3.0") || version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
            throw .invalidInput("OpenAPI \(version) is not supported (Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 are)")
        }
        let shown = swagger.map { "Swagger \($0)" } ?? "OpenAPI \(version)"
        guard case .object(let info)? = object["info"], info["title"]?.text != nil, info["version"]?.text != nil else {
            throw .invalidInput("the \(shown) document has no 'info' with a title and a version")
        }
        guard object["paths"] != nil || object["webhooks"] != nil else {
            throw .invalidInput("the \(shown) document has no 'paths'")
        }
        self.root = root
        self.version = swagger.map { "Swagger \($0)" } ?? version
    }

    /// A member of the root object.
    subscript(key: String) -> JSONValue? { root.member(key) }

    /// `value` with its `$ref` followed (again and again, at most 32 times: a loop ends there).
    /// A reference that leads nowhere (another file, a typo) gives nil.
    func resolve(_ value: JSONValue?) -> JSONValue? {
        Self.follow(value, root: root, externals: externals)
    }

    /// `value` with its `$ref` followed in `root` and the files `externals` hold.
    static func follow(_ value: JSONValue?, root: JSONValue, externals: [String: JSONValue]) -> JSONValue? {
        var current = value
        for _ in 0..<32 {
            guard case .object(let object)? = current, case .string(let reference)? = object["$ref"] else { return current }
            let hash = reference.firstIndex(of: "#") ?? reference.endIndex
            let file = String(reference[..<hash])
            let fragment = hash < reference.endIndex ? String(reference[reference.index(after: hash)...]) : ""
            guard let document = file.isEmpty ? root : externals[file] else { return nil }
            current = Self.pointer(fragment, in: document)
        }
        return nil
    }

    /// The value a JSON pointer (RFC 6901, `/components/schemas/Pet`) names in the document.
    func pointer(_ pointer: String) -> JSONValue? {
        Self.pointer(pointer, in: root)
    }

    /// The value a JSON pointer names in `document`.
    static func pointer(_ pointer: String, in document: JSONValue) -> JSONValue? {
        var current: JSONValue? = document
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = (PercentEncoding.decode(token) ?? String(token)).replacing("~1", with: "/").replacing("~0", with: "~")
            switch current {
            case .object(let object)?: current = object[key]
            case .array(let elements)?: current = Int(key).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: return nil
            }
        }
        return current
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for anything else.
    func member(_ key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// A string's text, or a number's literal (`version: 1.0` is a number in YAML).
    var text: String? {
        switch self {
        case .string(let text): text
        case .number(let literal): literal
        default: nil
        }
    }

    /// The object's members in order (empty for anything else).
    var members: [(key: String, value: JSONValue)] {
        if case .object(let object) = self { return object.map { ($0.key, $0.value) } }
        return []
    }

    /// The array's elements (empty for anything else).
    var elements: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }
}

extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
