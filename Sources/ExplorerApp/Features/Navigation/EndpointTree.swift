import Catalog
import DispatcherCore

/// A row of the endpoints pane: a group heading, or an endpoint (in a group or not).
package struct EndpointRow: Sendable, Hashable {
    /// What the row is.
    package enum Kind: Sendable, Hashable {
        /// A group's heading: its id, how many endpoints it holds, whether they are hidden.
        case group(id: String, count: Int, isFolded: Bool)
        /// The endpoint at this index of the service's endpoints.
        case endpoint(Int)
    }

    /// What the row is.
    package var kind: Kind
    /// How far it is indented (an endpoint in a group: 1).
    package var depth = 0
    /// Why the row passed the filter, for highlighting (nil without a filter).
    package var match: EndpointMatch?

    /// The endpoint's index in its service, nil for a heading.
    package var endpointIndex: Int? {
        // A switch, not `if case`: inlined into loops over rows, the `if case` form crashed the
        // release optimizer of Swift 6.3.1 (CopyPropagation, an ownership error).
        switch kind {
        case .endpoint(let index): index
        case .group: nil
        }
    }

    /// The group's id, nil for an endpoint.
    package var groupID: String? {
        switch kind {
        case .group(let id, _, _): id
        case .endpoint: nil
        }
    }
}

/// The parts of an endpoint a query is matched against, in the order they win ties.
package enum EndpointField: Int, Sendable, Hashable, CaseIterable {
    case id, title, path, method, group, service
}

/// Why an endpoint matched a query: how well, and which characters of which parts.
package struct EndpointMatch: Sendable, Hashable {
    /// The weakest kind over the query's words (each word must match some part).
    package var kind: FuzzyMatch.Kind
    /// The sum of the words' scores.
    package var score: Int
    /// The part that decided the rank (the first word's).
    package var field: EndpointField
    /// Matched UTF-8 offsets, by part.
    package var positions: [EndpointField: [Int]]
}

/// Builds rows and ranks endpoints; pure, so the reducer and the views agree on them.
package enum EndpointTree {
    /// The tree of a service: endpoints without a group in catalog order, each group at the place
    /// of its first endpoint with its endpoints under it (none when folded). A service with fewer
    /// than two groups is a plain list: one heading would add a row and sort nothing.
    package static func rows(_ endpoints: [CatalogEndpoint], isFolded: (String) -> Bool) -> [EndpointRow] {
        var members: [String: [Int]] = [:]
        var order: [(group: String?, index: Int)] = []
        for (index, endpoint) in endpoints.enumerated() {
            guard let group = endpoint.group else {
                order.append((nil, index))
                continue
            }
            if members[group] == nil { order.append((group, index)) }
            members[group, default: []].append(index)
        }
        guard members.count > 1 else { return endpoints.indices.map { EndpointRow(kind: .endpoint($0)) } }
        var rows: [EndpointRow] = []
        rows.reserveCapacity(endpoints.count + members.count)
        for (group, index) in order {
            guard let group else {
                rows.append(EndpointRow(kind: .endpoint(index)))
                continue
            }
            let indices = members[group] ?? []
            let folded = isFolded(group)
            rows.append(EndpointRow(kind: .group(id: group, count: indices.count, isFolded: folded)))
            if !folded { rows += indices.map { EndpointRow(kind: .endpoint($0), depth: 1) } }
        }
        return rows
    }

    /// Endpoints matching `query`, best first: by kind (exact, prefix, word start, subsequence),
    /// then recent first (`recency`: lower is more recent), then score, then catalog order.
    package static func ranked(
        _ endpoints: [CatalogEndpoint], query: String, service: String? = nil, recency: [String: Int] = [:]
    ) -> [(index: Int, match: EndpointMatch)] {
        let terms = query.split(separator: " ").map { FuzzyMatch.lowered(String($0)) }
        guard !terms.isEmpty else { return endpoints.indices.map { ($0, EndpointMatch(kind: .subsequence, score: 0, field: .id, positions: [:])) } }
        var found: [(index: Int, match: EndpointMatch, recent: Int)] = []
        for (index, endpoint) in endpoints.enumerated() {
            guard let match = match(terms, endpoint, service: service) else { continue }
            found.append((index, match, recency[endpoint.id] ?? Int.max))
        }
        found.sort { a, b in precedes((a.match, a.recent, 0, a.index), (b.match, b.recent, 0, b.index)) }
        return found.map { ($0.index, $0.match) }
    }

    /// Endpoints of every service matching `query`, ranked as `ranked` ranks, at most `limit`;
    /// with no query, the recently sent first, then the catalogs' order.
    package static func rankedAcross(
        _ services: [Service], query: String, recency: [String: [String: Int]], limit: Int
    ) -> [(service: Int, index: Int, match: EndpointMatch?)] {
        let terms = query.split(separator: " ").map { FuzzyMatch.lowered(String($0)) }
        var found: [(match: EndpointMatch, recent: Int, service: Int, index: Int)] = []
        for (serviceIndex, service) in services.enumerated() {
            let recent = recency[service.id] ?? [:]
            for (index, endpoint) in service.endpoints.enumerated() {
                let match = terms.isEmpty
                    ? EndpointMatch(kind: .subsequence, score: 0, field: .id, positions: [:]) : match(terms, endpoint, service: service.id)
                guard let match else { continue }
                found.append((match, recent[endpoint.id] ?? Int.max, serviceIndex, index))
            }
        }
        found.sort { a, b in precedes((a.match, a.recent, a.service, a.index), (b.match, b.recent, b.service, b.index)) }
        return found.prefix(limit).map { ($0.service, $0.index, terms.isEmpty ? nil : $0.match) }
    }

    /// The order of matches: by kind, then (for exact and prefix matches) the part that matched,
    /// then the recently sent, then the score, then the catalogs' order.
    static func precedes(_ a: (match: EndpointMatch, recent: Int, service: Int, index: Int), _ b: (match: EndpointMatch, recent: Int, service: Int, index: Int)) -> Bool {
        if a.match.kind != b.match.kind { return a.match.kind > b.match.kind }
        if a.match.field != b.match.field, a.match.kind >= .prefix { return a.match.field.rawValue < b.match.field.rawValue }
        if a.recent != b.recent { return a.recent < b.recent }
        if a.match.score != b.match.score { return a.match.score > b.match.score }
        return (a.service, a.index) < (b.service, b.index)
    }

    /// How the query's words match an endpoint; nil when one of them matches no part.
    static func match(_ terms: [[UInt8]], _ endpoint: CatalogEndpoint, service: String?) -> EndpointMatch? {
        match(terms) { term, field in
            text(field, of: endpoint, service: service).flatMap { FuzzyMatch.match(term, in: $0) }
        }
    }

    /// How the query's words match the parts `matchPart` matches one word against; nil when one
    /// of them matches no part.
    static func match(_ terms: [[UInt8]], _ matchPart: ([UInt8], EndpointField) -> FuzzyMatch?) -> EndpointMatch? {
        var result: EndpointMatch?
        for term in terms {
            var best: (field: EndpointField, match: FuzzyMatch)?
            for field in EndpointField.allCases {
                guard let match = matchPart(term, field) else { continue }
                if best == nil || match.kind > best!.match.kind || (match.kind == best!.match.kind && match.score > best!.match.score) {
                    best = (field, match)
                }
            }
            guard let best else { return nil }
            if var current = result {
                current.kind = min(current.kind, best.match.kind)
                current.score += best.match.score
                current.positions[best.field, default: []] = Array(Set(current.positions[best.field, default: []] + best.match.positions)).sorted()
                result = current
            } else {
                result = EndpointMatch(kind: best.match.kind, score: best.match.score, field: best.field, positions: [best.field: best.match.positions])
            }
        }
        return result
    }

    /// A part of the endpoint.
    static func text(_ field: EndpointField, of endpoint: CatalogEndpoint, service: String?) -> String? {
        switch field {
        case .id: endpoint.id
        case .title: endpoint.title == endpoint.id ? nil : endpoint.title
        case .path: endpoint.path
        case .method: endpoint.method.rawValue
        case .group: endpoint.group
        case .service: service
        }
    }
}
