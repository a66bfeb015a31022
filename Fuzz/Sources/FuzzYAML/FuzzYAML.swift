import FoundationEssentials
import FuzzDriver

@testable import YAMLSupport

@_cdecl("FuzzYAML_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// YAML text read by both parsers: whatever the subset parser accepts, libyaml must read to the
/// same tree (a difference traps, and libFuzzer keeps the input). Then the input's text repeated
/// through nested aliases: libyaml's reading must stop at the expansion cap, never build it.
func exercise(_ data: Data) {
    var text = String(decoding: data, as: UTF8.self)
    let marker = UInt8(ascii: "{")
    if let subset = text.withUTF8({ YAMLSubsetParser.compose($0, marker: marker) }) {
        guard let reference = try? YAMLComposer.compose(text, markingScalarsContaining: marker, parser: .libyaml) else {
            fatalError("the subset parser accepted a text libyaml rejects")
        }
        precondition(subset.outline == reference.outline, "the subset parser's tree differs from libyaml's")
    }
    let literal = String(text.unicodeScalars.prefix(2048).filter { $0.value >= 0x20 && $0.value < 0x7F && $0 != "'" })
    var lines = ["a: &a '\(literal)x'"]
    for level in 1...5 { lines.append("l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 100).joined(separator: ", ") + "]") }
    do {
        _ = try YAMLComposer.compose(lines.joined(separator: "\n"), parser: .libyaml)
        fatalError("ten billion values composed: the expansion cap did not hold")
    } catch {
        precondition(error.message.contains("once its aliases are expanded"), "an alias bomb failed otherwise: \(error.message)")
    }
}
