import FoundationEssentials
import FuzzDriver
@testable import JSONSchema
@testable import JSONSupport

@_cdecl("FuzzJSONSchema_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A schema and an instance, separated by a NUL byte (without one, the document is validated
/// against itself), in both dialects: any input must end in a list of violations, never a trap,
/// a hang or unbounded memory ($ref cycles, deep nesting, exponential anyOf).
func exercise(_ data: Data) {
    let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    guard let schema = try? JSONValue.parse(Data(parts[0])) else { return }
    let instance = parts.count > 1 ? ((try? JSONValue.parse(Data(parts[1]))) ?? .null) : schema
    let limits = ValidationLimits(steps: 200_000)
    for dialect in [SchemaDialect.draft2020_12, .openAPI30] {
        let violations = JSONSchema(schema, dialect: dialect).validate(instance, limits: limits)
        precondition(violations.count <= limits.violations + 1)
        for violation in violations { _ = violation.description }
    }
}
