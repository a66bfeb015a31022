@testable import BodyViewer
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzBodyViewer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A response body as the Body tab builds it: the JSON line index, folding, text and hex.
func exercise(_ data: Data) {
    _ = BodyDocument(data: data, contentType: "application/json")
    _ = BodyDocument(data: data, contentType: nil)
}
