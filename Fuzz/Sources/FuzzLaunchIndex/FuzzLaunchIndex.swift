@testable import Catalog
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzLaunchIndex_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A launch index's bytes, as read from the state folder (a damaged or hand-made file): read within
/// its bytes, never a trap; what reads back encodes to the same bytes, and its preview is made
/// without a trap.
func exercise(_ data: Data) {
    let bytes = [UInt8](data)
    guard let index = bytes.withUnsafeBytes({ CatalogLaunchIndex(decoding: $0) }) else { return }
    precondition(index.encoded() == bytes, "an index that does not encode back to its bytes")
    _ = index.preview(source: CatalogSource(origin: .option, directory: URL(fileURLWithPath: "/fuzz/catalog", isDirectory: true), displayPath: "/fuzz/catalog"))
}
