import JSONSupport

/// The rules a schema is read by.
package enum SchemaDialect: String, Sendable, Hashable, Codable {
    /// OpenAPI 3.0's Schema Object: JSON Schema draft 4 with `nullable`; `$ref` replaces its
    /// siblings, `exclusiveMinimum`/`exclusiveMaximum` are Booleans beside `minimum`/`maximum`.
    case openAPI30 = "openapi-3.0"
    /// JSON Schema 2020-12, the dialect of OpenAPI 3.1 and later.
    case draft2020_12 = "2020-12"

    /// The dialect of an OpenAPI (or Swagger, converted to 3.0) document of `version` (`3.0.3`, `3.1.0`).
    package static func openAPI(version: String) -> SchemaDialect {
        version.hasPrefix("3.0") || version.hasPrefix("2") || version.hasPrefix("Swagger") ? .openAPI30 : .draft2020_12
    }
}

/// One way an instance breaks a schema.
package struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, as a JSON Pointer (RFC 6901): `""` is the whole value, `/pets/0/id` a member.
    package var instancePointer: String
    /// The keyword that failed, as a URI fragment into the schema's document (`#/components/schemas/Pet/required`).
    package var schemaLocation: String
    /// What is wrong, for a person.
    package var message: String

    package init(instancePointer: String, schemaLocation: String, message: String) {
        self.instancePointer = instancePointer
        self.schemaLocation = schemaLocation
        self.message = message
    }

    package var description: String {
        "\(instancePointer.isEmpty ? "(the whole value)" : instancePointer): \(message) [\(schemaLocation)]"
    }
}

/// Bounds on one validation, so a hostile schema or instance costs bounded time and memory.
package struct ValidationLimits: Sendable, Hashable {
    /// Violations collected before stopping.
    package var violations: Int
    /// Nested schemas evaluated at once (through subschemas and `$ref`s).
    package var depth: Int
    /// `$ref`s followed one after another without moving into the instance: a longer chain is a cycle.
    package var referenceChain: Int
    /// Schemas evaluated in all (`anyOf` inside `anyOf` … grows exponentially).
    package var steps: Int

    package init(violations: Int = 100, depth: Int = 300, referenceChain: Int = 64, steps: Int = 20_000_000) {
        self.violations = violations
        self.depth = depth
        self.referenceChain = referenceChain
        self.steps = steps
    }
}

/// A JSON Schema inside a document (an OpenAPI document, a schemas file or a schema of its own):
/// `$ref`s are followed as JSON Pointers within that document (`#/components/schemas/Pet`).
/// `format`, `description`, `example`, `readOnly` and other annotations are not checked.
package struct JSONSchema: Sendable {
    /// The whole document the schema's `$ref`s point into.
    package let document: JSONValue
    /// Where the schema is in `document`, a JSON Pointer (`""`: the document is the schema).
    package let pointer: String
    package let dialect: SchemaDialect

    /// A schema that is a whole document.
    package init(_ schema: JSONValue, dialect: SchemaDialect = .draft2020_12) {
        self.document = schema
        self.pointer = ""
        self.dialect = dialect
    }

    /// The schema at `pointer` in `document`; nil when nothing is there.
    package init?(document: JSONValue, pointer: String, dialect: SchemaDialect) {
        guard let tokens = JSONPointer.tokens(pointer), JSONPointer.value(at: tokens, in: document) != nil else { return nil }
        self.document = document
        self.pointer = pointer
        self.dialect = dialect
    }

    /// Every way `instance` breaks the schema (empty: it conforms), at most `limits.violations`.
    package func validate(_ instance: JSONValue, limits: ValidationLimits = ValidationLimits()) -> [SchemaViolation] {
        let tokens = JSONPointer.tokens(pointer) ?? []
        guard let schema = JSONPointer.value(at: tokens, in: document) else {
            return [SchemaViolation(instancePointer: "", schemaLocation: "#" + pointer, message: "there is no schema at #\(pointer)")]
        }
        var evaluator = SchemaEvaluator(document: document, dialect: dialect, limits: limits, schemaPath: tokens)
        _ = evaluator.evaluate(schema, instance)
        return evaluator.finish()
    }

    /// Whether `instance` conforms (stops at the first violation).
    package func isValid(_ instance: JSONValue, limits: ValidationLimits = ValidationLimits()) -> Bool {
        validate(instance, limits: ValidationLimits(violations: 1, depth: limits.depth, referenceChain: limits.referenceChain, steps: limits.steps)).isEmpty
    }
}
