import FoundationEssentials
import FuzzDriver

@testable import Catalog

@_cdecl("FuzzYAML_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// YAML text read by both parsers: whatever the subset parser accepts, libyaml must read to the
/// same tree (a difference traps, and libFuzzer keeps the input).
func exercise(_ data: Data) {
    var text = String(decoding: data, as: UTF8.self)
    let marker = UInt8(ascii: "{")
    guard let subset = text.withUTF8({ YAMLSubsetParser.compose($0, marker: marker) }) else { return }
    guard let reference = try? YAMLComposer.compose(text, markingScalarsContaining: marker, parser: .libyaml) else {
        fatalError("the subset parser accepted a text libyaml rejects")
    }
    precondition(subset.outline == reference.outline, "the subset parser's tree differs from libyaml's")
}
