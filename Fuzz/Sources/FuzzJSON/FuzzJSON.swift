@testable import JSONSupport
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzJSON_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// JSON text, then a JSONPath made of the same bytes, evaluated on it.
func exercise(_ data: Data) {
    let value = try? JSONValue.parse(data)
    if let path = try? JSONPath(String(decoding: data.prefix(200), as: UTF8.self)), let value { _ = path.first(in: value) }
    _ = value?.prettyText()
}
