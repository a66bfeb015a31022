import ArgumentParser
import Catalog
import StateStore
import SystemSupport

/// `apiexplorer trust [DIR]`: trusts the catalog folder's files as they are now, after printing
/// what each untrusted one declares (hosts, secrets, files, downloads). Remembered in the state
/// folder by content: any later change to a file makes it untrusted again.
struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Trusts a catalog folder's files as they are now, after printing what they declare.",
        discussion: """
            An untrusted catalog (a file apiexplorer did not write, and no copy of the bundled ones) loads and answers \
            from its fixtures, but reads no secret from the environment, no file outside its folder, writes no download \
            and sends nothing over the network until it is trusted. Trust is remembered by each file's SHA-256 in the \
            state folder (trust.json): editing a file outside apiexplorer makes it a stranger's again. --trust on other \
            commands trusts for one run without remembering.
            """)

    @Argument(help: ArgumentHelp("The catalog folder (same as --catalog).", valueName: "DIR"))
    var folder: String?

    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp("The catalog folder. Default: $\(CatalogSource.environmentVariable), else ./environments.", valueName: "DIR"))
    var catalog: String?

    func run() throws {
        let source = CatalogSource.resolve(option: folder ?? catalog)
        guard let directory = source.directory else {
            Console.out("The bundled catalogs are always trusted.")
            return
        }
        let file = TrustFile()
        let catalog = CatalogLoader.load(source, trust: source.trust(in: file))
        if catalog.services.isEmpty {
            catalog.diagnostics.filter(\.isError).forEach { Console.error($0.description) }
            Console.error("error: no catalog in \(source.displayPath) could be loaded, so there is nothing to trust")
            throw ExitStatus.usage
        }
        let untrusted = catalog.untrustedServices
        guard !untrusted.isEmpty else {
            Console.out("Every catalog in \(source.displayPath) is trusted already (\(catalog.services.count) services).")
            return
        }
        for declaration in catalog.untrustedDeclarations { declaration.lines.forEach { Console.out($0) } }
        do throws(SystemError) {
            try file.trust(catalog.untrustedContentHashes, in: directory)
        } catch {
            throw ExitStatus.fail(error)
        }
        Console.out("Trusted \(untrusted.count) catalog file\(untrusted.count == 1 ? "" : "s") in \(source.displayPath) (kept in \(file.fileURL.path)).")
    }
}
