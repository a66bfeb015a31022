import FoundationEssentials
import FuzzDriver

@testable import CatalogAuthoring

@_cdecl("FuzzGraphQL_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A GraphQL schema (SDL), as `import graphql` reads it: a schema or an error with its place,
/// never a trap or a hang.
func exercise(_ data: Data) {
    do {
        _ = try GraphQLSchemaParser.parse(String(decoding: data, as: UTF8.self))
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error without a place: \(error)")
    }
}
