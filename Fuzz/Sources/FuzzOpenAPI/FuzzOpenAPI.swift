@testable import CatalogAuthoring
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzOpenAPI_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// An OpenAPI document (JSON or YAML), as `import openapi` reads it.
func exercise(_ data: Data) {
    _ = try? OpenAPIImporter.draft(from: data, documentName: "fuzz.yaml")
}
