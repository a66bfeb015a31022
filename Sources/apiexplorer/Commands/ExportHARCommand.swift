import ArgumentParser
import CatalogAuthoring
import FoundationEssentials
import JSONSupport
import StateStore
import SystemSupport

/// `apiexplorer export har [--out FILE]`: the history as an HTTP Archive (HAR 1.2).
struct ExportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Writes the history as HAR 1.2 (secrets stay masked).")

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var out: String?

    @Option(help: ArgumentHelp("Only the newest N requests.", valueName: "N"))
    var limit: Int?

    func run() throws {
        do throws(SystemError) {
            let text = HARExporter.text(try HistoryStore().entries(limit: limit).map(\.harExchange), creatorVersion: APIExplorerVersion.current)
            guard let out else { return Console.out(text) }
            try AtomicFile.write(Data((text + "\n").utf8), to: URL(fileURLWithPath: out), permissions: 0o600)
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}

extension HistoryEntry {
    /// The entry as HAR's exchange (the history's values: secrets stay masked).
    var harExchange: HARExchange {
        let time = response?.timeMs ?? 0
        var custom: JSONObject = [
            "service": .string(service), "endpoint": .string(endpoint), "environment": .string(environment), "mode": .string(mode.rawValue),
        ]
        custom["example"] = example.map(JSONValue.string)
        if let error {
            custom["error"] = ["kind": .string(error.kind), "message": .string(error.message), "status": error.status.map(JSONValue.integer) ?? .null]
        }
        let harRequest = HARExchange.Request(
            method: request.method, url: request.url, headers: request.headers.map { ($0.name, $0.value) }, body: request.body.map(Self.harBody),
            form: request.form?.map { HARExchange.FormField(name: $0.name, value: $0.value, fileName: $0.fileName, contentType: $0.contentType) })
        let harResponse = response.map { response in
            HARExchange.Response(
                status: response.status, statusText: response.statusText, httpVersion: response.httpVersion,
                headers: response.headers.map { ($0.name, $0.value) }, body: Self.harBody(response.body), size: response.size)
        }
        return HARExchange(
            started: HistoryStore.timestamp(date.addingTimeInterval(-time / 1000)), time: time, request: harRequest, response: harResponse, custom: custom)
    }

    static func harBody(_ body: BodyRecord) -> HARExchange.Body {
        HARExchange.Body(text: body.text, isBase64: body.encoding == .base64, size: body.size, truncated: body.truncated, keptBytes: body.data.count)
    }
}
