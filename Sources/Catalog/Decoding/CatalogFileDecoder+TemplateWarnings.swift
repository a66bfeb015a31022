import DispatcherCore
import YAMLSupport

extension CatalogFileDecoder {
    /// Warns about every value holding a `{{` that no `}}` closes: it would be sent as written
    /// (percent-encoded in a URL) rather than filled in. `scalars` are the values holding a `{`,
    /// as the composer marked them: each written value once, without a walk of the whole tree.
    func warnAboutUnclosedPlaceholders(in scalars: [YAMLNode]) {
        for node in scalars {
            guard let scalar = node.scalar, Template(scalar.text).hasUnclosedOpening else { continue }
            warning("'\(scalar.text)' holds '{{' without a name and a closing '}}': it is sent as written, not filled in", at: node)
        }
    }
}
