import Catalog
import CatalogAuthoring
import DispatcherCore
import ExplorerApp
import FoundationEssentials

/// Reads scratch requests into one-endpoint services and saves them into catalog files.
struct ScratchEffects: Sendable {
    /// The catalogs loaded last.
    let catalog: @Sendable () -> CatalogSet?
    /// Makes sessions for a scratch request's service, now and after every reload.
    let addService: @Sendable (Service) -> Void
    /// Reads the catalogs again after `file` was written over `catalog`.
    let reload: @Sendable (_ file: String, _ catalog: CatalogSet) -> Void
    /// Where trusted catalogs are remembered (a written file keeps its trust).
    let trust: (any TrustPersistence)?

    func perform(_ effect: ScratchEffect, _ context: EffectContext) {
        switch effect {
        case .make(let text, let id, let preferring):
            context.load { .scratch(make(text: text, id: id, preferring: preferring)) }
        case .save(let entry, let edits, let target):
            context.load { .scratch(save(entry, edits: edits, into: target)) }
        }
    }

    /// Reads a scratch request into a one-endpoint service and makes its session.
    private func make(text: String, id: String, preferring: EnvironmentKey?) -> ScratchAction {
        let request: CurlRequest
        do throws(AuthoringError) {
            request = try ScratchRequest.parse(text)
        } catch {
            return .made(nil, error: error.description)
        }
        guard let catalog = catalog() else {
            return .made(nil, error: "the catalogs are not loaded yet")
        }
        let number = id.split(separator: "-").last.map(String.init) ?? id
        let (service, matched) = ScratchRequest.service(
            for: request, id: id, title: "Scratch \(number): \(request.method.rawValue) \(request.url.host ?? "")", in: catalog, preferring: preferring)
        addService(service)
        return .made(ScratchEntry(service: service, text: text, matched: matched), error: nil)
    }

    /// Saves a scratch request (with its edits) as a new endpoint at the end of catalog service
    /// `target`, secrets turned into `{{secret.NAME}}` placeholders, then reads the catalogs again.
    private func save(_ entry: ScratchEntry, edits: EndpointEdits?, into target: String) -> ScratchAction {
        let failed = { (message: String) in ScratchAction.saved(scratch: entry.service.id, endpoint: nil, secretNames: [], error: message) }
        guard let catalog = catalog() else {
            return failed("the catalogs are not loaded yet")
        }
        guard let scratch = entry.service.endpoints.first, let environment = entry.service.environments.first else {
            return failed("the scratch request has no endpoint")
        }
        var endpoint = scratch
        do throws(EditsError) {
            if let edits { endpoint = try scratch.applying(edits) }
        } catch {
            return failed(error.message)
        }
        let request = ScratchRequest.curlRequest(for: endpoint, baseURL: environment.baseURL)
        guard let service = catalog.service(target) else {
            return create(target, from: request, entry: entry, in: catalog)
        }
        // The path is made relative to the environment of the target whose base URL holds it.
        let base = service.environments.first { ScratchRequest.holds($0.baseURL, request.url) }?.baseURL
        let key: EndpointKey
        let secretNames: [String]
        do throws(AuthoringError) {
            var made = try CurlImporter.endpoint(for: request, service: service.id, baseURL: base)
            made.endpoint.id = Self.freeID(made.endpoint.id, in: service)
            secretNames = made.secrets.map(\.name)
            try CatalogUpdate.adding(made.endpoint, to: service).commit(keepingTrustOf: service, in: trust)
            key = EndpointKey(service: service.id, endpoint: made.endpoint.id)
        } catch {
            return failed(error.description)
        }
        reload(service.file, catalog)
        return .saved(scratch: entry.service.id, endpoint: key, secretNames: secretNames, error: nil)
    }

    /// Saves a scratch request as the first endpoint of a new service `id`: a new catalog file
    /// `id.yaml` in the catalog folder (never replacing a file), its one environment at the
    /// request's origin, as `import curl` makes it.
    private func create(_ id: String, from request: CurlRequest, entry: ScratchEntry, in catalog: CatalogSet) -> ScratchAction {
        let failed = { (message: String) in ScratchAction.saved(scratch: entry.service.id, endpoint: nil, secretNames: [], error: message) }
        guard let folder = catalog.source.directory else {
            return failed("the bundled catalogs cannot be written: use --catalog DIR (an empty folder will do)")
        }
        let key: EndpointKey
        let secretNames: [String]
        do throws(AuthoringError) {
            var draft = try CurlImporter.catalog(for: request, service: id)
            draft.header = "Made from a scratch request in the explorer."
            secretNames = try CurlImporter.endpoint(for: request, service: id).secrets.map(\.name)
            try draft.write(into: folder, force: false)
            key = EndpointKey(service: id, endpoint: draft.endpoints.first?.id ?? "request")
        } catch {
            return failed(error.description)
        }
        reload("\(id).yaml", catalog)
        return .saved(scratch: entry.service.id, endpoint: key, secretNames: secretNames, error: nil)
    }

    /// `id`, or `id2`, `id3` … when the service has it already.
    static func freeID(_ id: String, in service: Service) -> String {
        var free = id
        var number = 2
        while service.endpoint(free) != nil {
            free = "\(id)\(number)"
            number += 1
        }
        return free
    }
}
