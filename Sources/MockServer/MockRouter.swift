import Catalog
import DispatcherCore
import FoundationEssentials
import TextSupport

/// Finds the endpoint a request is for. Each service is mounted at `/<service id>`, so one server
/// serves every catalog; `{{name}}` in a path matches any text within its segment, and literal
/// segments win over placeholders (`/pet/findByStatus` before `/pet/{{petId}}`).
struct MockRouter: Sendable {
    /// One endpoint's route.
    struct Route: Sendable {
        let service: MockService
        let endpoint: CatalogEndpoint
        let segments: [SegmentPattern]
        let literalSegments: Int
    }

    /// What a request matched.
    enum Match {
        case endpoint(Route)
        /// The path exists, but not for this method.
        case methodNotAllowed(allowed: [HTTPMethod])
        /// A service's root or the server's root: list what is served.
        case index(MockService?)
        case notFound
    }

    let services: [MockService]
    private let routes: [Route]

    init(services: [MockService]) {
        self.services = services
        var routes: [Route] = []
        for service in services {
            for endpoint in service.service.endpoints {
                let segments = MockRouter.split(endpoint.path).map(SegmentPattern.init)
                let literal = segments.count { $0.isLiteral }
                routes.append(Route(service: service, endpoint: endpoint, segments: segments, literalSegments: literal))
            }
        }
        self.routes = routes
    }

    func match(method: String, path: String) -> Match {
        var segments = MockRouter.split(path).map { PercentEncoding.decode($0) ?? $0 }
        guard let first = segments.first else { return .index(nil) }
        guard let service = services.first(where: { $0.service.id == first }) else { return .notFound }
        segments.removeFirst()
        if segments.isEmpty { return .index(service) }
        let candidates = routes.filter { route in
            route.service.service.id == service.service.id && route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { $0.matches($1) }
        }
        let sameMethod = candidates.filter { $0.endpoint.method.rawValue == method.uppercased() }
        // Most literal segments first; file order breaks ties (max keeps the first of equals).
        if let best = sameMethod.enumerated().max(by: { lhs, rhs in
            lhs.element.literalSegments != rhs.element.literalSegments
                ? lhs.element.literalSegments < rhs.element.literalSegments : lhs.offset > rhs.offset
        })?.element {
            return .endpoint(best)
        }
        if method.uppercased() == "HEAD", let get = candidates.first(where: { $0.endpoint.method == .get }) { return .endpoint(get) }
        if !candidates.isEmpty {
            var allowed: [HTTPMethod] = []
            for route in candidates where !allowed.contains(route.endpoint.method) { allowed.append(route.endpoint.method) }
            return .methodNotAllowed(allowed: allowed)
        }
        return .notFound
    }

    /// `/pet/7/` → `["pet", "7"]`.
    static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

/// One path segment of an endpoint: literal text and `{{name}}` placeholders.
struct SegmentPattern: Sendable {
    enum Part: Sendable {
        case literal(String)
        case placeholder
    }

    let parts: [Part]

    init(_ segment: String) {
        var parts: [Part] = []
        var rest = segment[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            if open.lowerBound > rest.startIndex {
                parts.append(.literal(PercentEncoding.decode(rest[..<open.lowerBound]) ?? String(rest[..<open.lowerBound])))
            }
            if case .placeholder? = parts.last {} else { parts.append(.placeholder) }
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(PercentEncoding.decode(rest) ?? String(rest))) }
        self.parts = parts
    }

    var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { true } else { false } } }

    /// Whether a request's segment fits: literals in order, each placeholder taking at least one character.
    func matches(_ segment: String) -> Bool {
        SegmentPattern.matches(parts[...], segment[...])
    }

    private static func matches(_ parts: ArraySlice<Part>, _ text: Substring) -> Bool {
        guard let first = parts.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return matches(parts.dropFirst(), text.dropFirst(literal.count))
        case .placeholder:
            let rest = parts.dropFirst()
            guard !text.isEmpty else { return false }
            if rest.isEmpty { return true }
            var index = text.index(after: text.startIndex)
            while index <= text.endIndex {
                if matches(rest, text[index...]) { return true }
                if index == text.endIndex { break }
                index = text.index(after: index)
            }
            return false
        }
    }
}
