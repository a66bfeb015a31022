import ArgumentParser
import Catalog
import StateStore
import SystemSupport
import TextSupport

/// Before a command reaches outside an untrusted catalog (the network, the catalog's download
/// file): what the catalog declares is shown and the person asked on the terminal; a yes is
/// remembered (`trust.json`) and the catalogs read again. Without a terminal, the declaration and
/// how to trust it are printed, and the command stops with exit status 2.
enum TrustGate {
    /// `catalog` once `service` is trusted (read again), or `catalog` itself when it already is.
    static func require(_ service: Service, in catalog: CatalogSet, to what: String) throws(ExitCode) -> CatalogSet {
        guard !service.isTrusted else { return catalog }
        Console.error("\(service.file) is not trusted: to \(what), it needs your trust. Trusted, it may:")
        TrustDeclaration(service).lines.dropFirst().forEach { Console.error($0) }
        guard TerminalQuestion.isAvailable, let directory = catalog.source.directory, let contentHash = service.contentHash else {
            Console.error("error: not sent; trust it with `apiexplorer trust \(catalog.source.displayPath)`, or --trust for this run (stub mode needs no trust)")
            throw ExitStatus.usage
        }
        let answer = TerminalQuestion.ask("Trust \(service.file) as it is now? [y/N] ")?.trimmed.lowercased()
        guard answer == "y" || answer == "yes" else {
            Console.error("Not sent: \(service.file) is not trusted.")
            throw ExitStatus.usage
        }
        let file = TrustFile()
        do throws(SystemError) {
            try file.trust([contentHash], in: directory)
        } catch {
            throw ExitStatus.fail(error)
        }
        return CatalogLoader.load(catalog.source, trust: catalog.source.trust(in: file))
    }
}
