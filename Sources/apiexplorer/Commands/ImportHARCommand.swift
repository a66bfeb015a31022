import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `apiexplorer import har FILE`: a HAR capture becomes catalogs.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Turns a HAR 1.2 capture (a browser's network log) into catalogs, one service per host.",
        discussion: """
            Requests with the same method and path shape become one endpoint: path segments that are ids (numbers, \
            UUIDs, long hex) and vary between requests become {{placeholders}}. The captured responses become the stub \
            (the first 2xx) and one example per other status. Headers browsers add on their own are left out; cookies, \
            Authorization and API-key headers, secret-named query items, form fields and JSON members become \
            {{secret.NAME}}, never written in clear. The catalog is checked before anything is written.
            """)

    @Argument(help: ArgumentHelp("The HAR file.", valueName: "FILE"))
    var file: String

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        do throws(AuthoringError) {
            if output.service != nil { throw .usage("import har names its services after the hosts; --service does not apply") }
            if output.root != nil { throw .usage("a HAR capture names no other file; --root does not apply") }
            let data = try ImportOutputOptions.read(file, limit: ImportOutputOptions.captureLimit)
            result = try HARImporter.catalog(har: data, documentName: URL(fileURLWithPath: file).lastPathComponent)
        } catch {
            throw ExitStatus.fail(error)
        }
        try output.write(result, command: "import har \(file)")
    }
}
