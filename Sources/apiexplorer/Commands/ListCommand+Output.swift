import Catalog
import DispatcherCore
import JSONSupport
import Sessions
import TextSupport

/// What `apiexplorer list` shows: services, their environments and endpoints.
package enum CatalogListing {
    /// The listing as JSON (documented in docs/cli.md).
    package static func json(_ catalog: CatalogSet) -> JSONValue {
        let services: [JSONValue] = catalog.services.map { service in
            let environments: [JSONValue] = service.environments.enumerated().map { index, environment in
                [
                    "name": .string(environment.name), "type": .string(environment.type.label),
                    "baseURL": .string(environment.baseURL.absoluteString), "default": .bool(index == 0),
                    "mode": .string(EndpointCaller.defaultMode(of: environment).rawValue),
                ]
            }
            let endpoints: [JSONValue] = service.endpoints.map { endpoint in
                [
                    "id": .string(endpoint.id), "title": .string(endpoint.title), "method": .string(endpoint.method.rawValue),
                    "path": .string(endpoint.path), "group": endpoint.group.map(JSONValue.string) ?? .null,
                    "examples": .array(endpoint.exampleNames.map(JSONValue.string)),
                ]
            }
            return [
                "id": .string(service.id), "title": .string(service.title), "file": .string(service.file),
                "environments": .array(environments), "endpoints": .array(endpoints),
            ]
        }
        return [
            "source": ["origin": .string(catalog.source.origin.rawValue), "path": .string(catalog.source.displayPath)],
            "services": .array(services),
        ]
    }

    /// The listing as text for people: one block per service, endpoints aligned.
    package static func text(_ catalog: CatalogSet) -> String {
        var lines: [String] = []
        for service in catalog.services {
            if !lines.isEmpty { lines.append("") }
            lines.append("\(service.id)  \(service.title)  (\(service.file))")
            let environments = service.environments.enumerated().map { index, environment in
                "\(environment.name) (\(environment.type.label)\(index == 0 ? ", default" : ""))"
            }
            lines.append("  environments: \(environments.joined(separator: ", "))")
            let methodWidth = service.endpoints.map(\.method.rawValue.count).max() ?? 0
            let idWidth = service.endpoints.map { $0.key.description.count }.max() ?? 0
            let pathWidth = service.endpoints.map(\.path.count).max() ?? 0
            for endpoint in service.endpoints {
                let method = endpoint.method.rawValue.padded(to: methodWidth)
                let id = endpoint.key.description.padded(to: idWidth)
                let path = endpoint.path.padded(to: pathWidth)
                let title = endpoint.title == endpoint.id ? "" : endpoint.title
                lines.append(String("  \(method)  \(id)  \(path)  \(title)".trimmingSuffix { $0 == " " }))
            }
        }
        if catalog.services.isEmpty { lines.append("No service loaded from \(catalog.source); run `apiexplorer validate` for details.") }
        return lines.joined(separator: "\n")
    }
}

