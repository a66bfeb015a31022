/// What a key does to the overlay slice's own windows.
package enum OverlaysCommand: Sendable, Hashable {
    /// The keys, generated from the keymap.
    case help
    /// The catalog's problems, with file:line:column.
    case showDiagnostics
}

extension OverlaysFeature {
    static let diagnosticsKeys: [KeyBinding] = [KeyBinding("D", .overlays(.showDiagnostics), .other, help: "catalog problems, with file:line:column")]

    static let helpKeys: [KeyBinding] = [KeyBinding("?", .overlays(.help), .other, help: "this help")]
}
