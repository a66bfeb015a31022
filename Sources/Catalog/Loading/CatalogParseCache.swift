import SystemSupport
import YAMLSupport

/// Keeps what parsing each catalog file gave (its YAML node tree, positions included), keyed by
/// the file's path and identity, so a launch on unchanged files parses no YAML. The tree is the
/// file's own text before any templating: nothing read from the environment, `.env` or a secret
/// store is in it. Decoding still runs on it, so diagnostics are the same as without a cache.
package protocol CatalogParseCache: Sendable {
    /// The composition kept for the file at `path` (absolute) when it was as `identity` says; nil
    /// when none is, or what is kept is unsound.
    func composition(forFile path: String, identity: FileIdentity) -> YAMLComposer.Composition?
    /// Keeps the composition of the file at `path` as it was (`identity`). Failing to keep it is
    /// not an error: the next load parses the file again.
    func keep(_ composition: YAMLComposer.Composition, forFile path: String, identity: FileIdentity)
    /// Called once a load is done with the cache: housekeeping that must not run per file (a
    /// load of N files must cost N times one file's work, not N²).
    func finishLoad()
}

extension CatalogParseCache {
    package func finishLoad() {}
}
