import Catalog
import DispatcherCore
import Sessions

/// The request Enter would send now, built as the dispatcher builds it (before plugins).
struct RequestPreview {
    /// The request, or why it cannot be built (a placeholder without a value, a JSON body that does not parse).
    let request: Built

    enum Built {
        case request(Request)
        case problem(String)
    }
    /// Masks the secrets the request carries.
    let redactor: Redactor
    /// The size of a draft body too large to build on every frame (left out of `request`; it
    /// was checked when it came back from the editor, and is built when sent).
    var largeBody: Int? = nil

    /// Draft bodies larger than this are not built for the preview.
    static let largeBodyBytes = 64 << 10
}

extension AppState {
    /// The selected endpoint's next request in the active environment, with its edits and the
    /// run-time values; nil without an endpoint.
    var nextRequestPreview: RequestPreview? {
        guard let service = activeService, let environment = activeEnvironment, let endpoint = selectedEndpoint else { return nil }
        var edits = selectedEdits
        // A large draft body would be parsed, filled and encoded on every frame: it is left out.
        var largeBody: Int?
        if case .text(let text, let isJSON)? = edits.body, text.utf8.count > RequestPreview.largeBodyBytes {
            largeBody = text.utf8.count
            edits.body = .text(isJSON ? "{}" : "", isJSON: isJSON)
        }
        let values = activeValues
        let builder = RequestBuilder(service: service, environment: environment, secrets: secrets, deferredToken: service.authRefresh?.into)
        let typed = values.filter { $0.key.hasPrefix("secret.") }.map(\.value)
        let redactor = ServiceSession.makeRedactor(service: service, environment: environment, secrets: secrets).adding(secretValues: typed)
        do {
            let edited = try endpoint.applying(edits)
            let captured = activeEnvironmentKey.map { capturedValues(for: edited, environment: $0, mode: mode) } ?? [:]
            let prepared = try builder.prepare(edited, values: values, captured: captured, removingHeaders: edits.removedHeaders)
            let resolved = try Endpoint.resolve(prepared.target, in: prepared.environment)
            var headers = resolved.headers
            let (data, contentType) = resolved.body.encoded()
            if let contentType, !headers.contains("Content-Type") { headers.set("Content-Type", contentType, origin: .body) }
            let request = Request(
                id: 0, identifier: resolved.identifier, method: resolved.method, url: resolved.url, headers: headers,
                body: largeBody == nil ? data : nil, settings: resolved.settings)
            return RequestPreview(request: .request(request), redactor: redactor, largeBody: largeBody)
        } catch let error as EditsError {
            return RequestPreview(request: .problem(error.message), redactor: redactor)
        } catch let error as UnresolvedPlaceholderError {
            return RequestPreview(request: .problem(error.description), redactor: redactor)
        } catch let error as DispatchError {
            return RequestPreview(request: .problem(error.message), redactor: redactor)
        } catch {
            return RequestPreview(request: .problem("\(error)"), redactor: redactor)
        }
    }
}
