import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSchema
import JSONSupport
import TextSupport

/// The response schemas of a catalog's endpoints, as an import keeps them beside the catalog
/// (`schemas: petstore.schemas.json`), and the check of a response against them:
///
///     { "format": "apiexplorer-response-schemas/1", "dialect": "openapi-3.0", "source": "petstore.yaml",
///       "endpoints": { "listPets": { "200": { "application/json": { "$ref": "#/components/schemas/Pets" } } } },
///       "components": { "schemas": { "Pets": { … } } } }
///
/// Statuses are keyed as OpenAPI writes them (`200`, `2XX`, `default`), schemas by media type;
/// `$ref`s point into this file. Parse it once (per service) and check many responses.
package struct ResponseContract: Sendable {
    /// The value of `format`.
    package static let format = "apiexplorer-response-schemas/1"

    /// The whole file.
    package let document: JSONValue
    /// How its schemas are read (OpenAPI 3.0 or JSON Schema 2020-12).
    package let dialect: SchemaDialect
    /// The file's path, for messages.
    package let path: String

    /// Reads a schemas file.
    package init(data: Data, path: String) throws(ContractError) {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw ContractError("the schemas file '\(path)' is not JSON: \(path):\(error.line):\(error.column): \(error.reason)")
        }
        guard case .object? = document["endpoints"] else {
            throw ContractError("the schemas file '\(path)' has no 'endpoints' mapping: it is not a file of response schemas")
        }
        self.document = document
        self.path = path
        self.dialect = document["dialect"]?.stringValue.flatMap(SchemaDialect.init(rawValue:)) ?? .draft2020_12
    }

    /// The schemas `service` names (`schemas:`); nil when it names none.
    package init?(service: Service) throws(ContractError) {
        guard let file = service.responseSchemas else { return nil }
        try self.init(data: file.data, path: file.path)
    }

    /// Whether any response of `endpoint` has a schema kept.
    package func hasSchemas(endpoint: String) -> Bool {
        guard case .object(let responses)? = document["endpoints"]?[endpoint] else { return false }
        return !responses.isEmpty
    }

    /// The schema for a response of `endpoint` with `status` and `contentType` (a media type,
    /// parameters allowed), or why there is none.
    package func schema(endpoint: String, status: Int, contentType: String?) -> Result<JSONSchema, NoSchema> {
        guard case .object(let responses)? = document["endpoints"]?[endpoint] else {
            return .failure(NoSchema("\(path) has no response schemas for the endpoint '\(endpoint)'"))
        }
        let keys = [String(status), "\(status / 100)XX", "\(status / 100)xx", "default"]
        guard let key = keys.first(where: { responses[$0] != nil }), case .object(let content)? = responses[key] else {
            let declared = responses.keys.joined(separator: ", ")
            return .failure(NoSchema("\(endpoint) declares no response for status \(status) (it declares \(declared.isEmpty ? "none" : declared))"))
        }
        let media = contentType.map(Self.mediaType)
        var chosen: String?
        if let media {
            let family = String(media.prefix { $0 != "/" }) + "/*"
            chosen = [media, family, "*/*"].first { content[$0] != nil }
        } else if content.count == 1 {
            chosen = content.keys.first
        }
        guard let chosen else {
            let declared = content.keys.joined(separator: ", ")
            return .failure(
                NoSchema("\(endpoint) declares no schema for \(media.map { "content type \($0)" } ?? "a response without a content type") with status \(key) (it declares \(declared.isEmpty ? "none" : declared))"))
        }
        let pointer = "/endpoints/\(JSONPointer.escape(endpoint))/\(JSONPointer.escape(key))/\(JSONPointer.escape(chosen))"
        guard let schema = JSONSchema(document: document, pointer: pointer, dialect: dialect) else {
            return .failure(NoSchema("\(path) has no schema at #\(pointer)"))
        }
        return .success(schema)
    }

    /// Checks a response body against its schema: the violations (none: it conforms), or why
    /// there is no schema to check it against.
    package func check(endpoint: String, status: Int, contentType: String?, body: Data, limits: ValidationLimits = ValidationLimits()) -> ContractResult {
        let schema: JSONSchema
        switch self.schema(endpoint: endpoint, status: status, contentType: contentType) {
        case .success(let found): schema = found
        case .failure(let reason): return .noSchema(reason.message)
        }
        let location = "\(path)#\(schema.pointer)"
        guard !body.isEmpty else {
            return .checked(schema: location, violations: [SchemaViolation(instancePointer: "", schemaLocation: "#" + schema.pointer, message: "the body is empty, but the schema describes a JSON value")])
        }
        let instance: JSONValue
        do {
            instance = try JSONValue.parse(body)
        } catch {
            return .checked(
                schema: location, violations: [SchemaViolation(instancePointer: "", schemaLocation: "#" + schema.pointer, message: "the body is not JSON (\(error.line):\(error.column): \(error.reason))")])
        }
        return .checked(schema: location, violations: schema.validate(instance, limits: limits))
    }

    /// Checks `response` (its status, Content-Type and body) as a response of `endpoint`.
    package func check(endpoint: String, response: Response, limits: ValidationLimits = ValidationLimits()) -> ContractResult {
        check(endpoint: endpoint, status: response.status, contentType: response.mediaType, body: response.body, limits: limits)
    }

    /// `application/json; charset=utf-8` → `application/json`.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmed.lowercased()
    }
}

/// What checking a response against its schema found.
package enum ContractResult: Sendable, Hashable {
    /// The body was checked against the schema at `schema` (`petstore.schemas.json#/endpoints/…`):
    /// it conforms when `violations` is empty.
    case checked(schema: String, violations: [SchemaViolation])
    /// No schema says what this response should be (the reason, for a person).
    case noSchema(String)

    /// The violations found (none when it conforms or nothing was checked).
    package var violations: [SchemaViolation] {
        if case .checked(_, let violations) = self { return violations }
        return []
    }

    /// Whether the body was checked and conforms.
    package var conforms: Bool {
        if case .checked(_, let violations) = self { return violations.isEmpty }
        return false
    }
}

/// Why a response has no schema to be checked against.
package struct NoSchema: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// A schemas file that cannot be used.
package struct ContractError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
