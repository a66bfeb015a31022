@testable import CatalogAuthoring
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzCurl_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A curl command line, as `import curl` reads it.
func exercise(_ data: Data) {
    _ = try? CurlCommandParser.parse(String(decoding: data, as: UTF8.self))
}
