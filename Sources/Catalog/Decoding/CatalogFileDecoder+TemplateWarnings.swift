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

    /// Reports every `{{response.SERVICE/ENDPOINT …}}` naming another service: a catalog reads
    /// only its own responses (another catalog's may carry its tokens), so such a reference is an
    /// error where it is written, and finds nothing when sent.
    func checkResponseReferences(in scalars: [YAMLNode], service: String) {
        for node in scalars {
            guard let scalar = node.scalar, scalar.text.contains("{{" + ResponseReference.prefix) else { continue }
            for name in Template(scalar.text).placeholders {
                if case .failure(let problem)? = ResponseReference.parse(name, service: service), problem.isOtherCatalog {
                    // The rest of the service loads: the reference alone is refused.
                    error(problem.message, at: node)
                    isolatedErrorCount += 1
                }
            }
        }
    }
}
