import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Saves a live response as a fixture beside the catalog and points the endpoint's stub (or a
/// named example) at it. Secrets are masked in the saved body, nothing is replaced without
/// `force`, the edited catalog is loaded before anything is written, and files are written
/// through `CatalogUpdate` (temporary files, then renames), so an interruption never loses the
/// old fixture.
package enum FixtureRecorder {
    /// A recording ready to be written.
    package struct Recording: Sendable {
        /// The fixture file, relative to the catalog folder (nil for an empty body).
        package var fixturePath: String?
        /// The example recorded (`default` for the stub).
        package var example: String
        /// The files to write.
        package var update: CatalogUpdate
    }

    /// Prepares the recording of `response` for the selection's endpoint as `example` (nil: the stub).
    package static func prepare(
        _ response: Response, for selection: EndpointSelection, example: String?, redactor: Redactor, force: Bool
    ) throws(AuthoringError) -> Recording {
        let name = example ?? CatalogExample.defaultName
        let service = selection.service
        let endpoint = selection.endpoint
        var fixturePath: String?
        var fixture: Data?
        if !response.body.isEmpty {
            let suffix = name == CatalogExample.defaultName ? "" : "-\(Identifier.make(name, fallback: "example"))"
            let path = "fixtures/\(service.id)/\(endpoint.id)\(suffix).\(fileExtension(for: response.mediaType))"
            if !force, let directory = service.directory, FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path) {
                throw .wouldOverwrite("\(path) already exists; --force replaces it")
            }
            fixturePath = path
            fixture = redactedBody(response, redactor: redactor)
        }
        var lines = ["status: \(response.status)"]
        if let contentType = response.headers["Content-Type"] { lines.append("headers: \(YAMLText.flowMapping([("Content-Type", contentType)]))") }
        if let fixturePath { lines.append("bodyFile: \(YAMLText.scalar(fixturePath))") }
        var update = try CatalogUpdate(service: service) { text throws(AuthoringError) in
            var editor = CatalogTextEditor(text)
            try editor.setExample(endpoint: endpoint.id, example: example, body: lines, replace: force)
            return editor.text
        }
        if let fixturePath, let fixture { update.files = [(fixturePath, fixture)] }
        let checked = try update.validate(serviceID: service.id)
        guard let recorded = checked.endpoint(endpoint.id)?.example(named: name), case .response(let status, _, _) = recorded.sample, status == response.status else {
            throw .invalidInput("the edited catalog does not give \(endpoint.key) the recorded example '\(name)', so nothing was written")
        }
        return Recording(fixturePath: fixturePath, example: name, update: update)
    }

    /// The body as saved: JSON pretty-printed with secret members masked; text with known secrets masked; bytes as they are.
    static func redactedBody(_ response: Response, redactor: Redactor) -> Data {
        let type = response.mediaType ?? ""
        if type.isEmpty || type.contains("json"), let value = try? JSONValue.parse(response.body) {
            return Data((redactor.text(redactor.json(value).prettyText()) + "\n").utf8)
        }
        if type.hasPrefix("text/") || type.contains("xml") || type.contains("yaml") || type.contains("javascript"),
            let text = String(data: response.body, encoding: .utf8)
        {
            return Data(redactor.text(text).utf8)
        }
        return response.body
    }

    /// The fixture file extension for a media type (the catalog implies the type back from it).
    static func fileExtension(for mediaType: String?) -> String {
        guard let type = mediaType else { return "bin" }
        if type.contains("json") { return "json" }
        let known = [
            "application/xml": "xml", "text/xml": "xml", "text/html": "html", "text/plain": "txt", "text/csv": "csv",
            "application/yaml": "yaml", "text/yaml": "yaml", "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif",
            "image/svg+xml": "svg", "application/pdf": "pdf", "application/gzip": "gz",
        ]
        if let known = known[type] { return known }
        return type.hasSuffix("+xml") ? "xml" : "bin"
    }
}
