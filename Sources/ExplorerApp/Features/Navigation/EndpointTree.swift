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
        var found: [(index: Int, match: EndpointMatch)] = []
        var keys: [RankKey] = []
        for index in endpoints.indices {
            guard let match = match(terms, endpoints[index], service: service) else { continue }
            let recent = recency.isEmpty ? Int.max : recency[endpoints[index].id] ?? Int.max
            keys.append(RankKey(match, recent: recent, service: 0, index: index, slot: found.count))
            found.append((index, match))
        }
        keys.sort(by: RankKey.precedes)
        return keys.map { found[$0.slot] }
    }

    /// Endpoints of every service matching `query`, ranked as `ranked` ranks, at most `limit`;
    /// with no query, the recently sent first, then the catalogs' order.
    package static func rankedAcross(
        _ services: [Service], query: String, recency: [String: [String: Int]], limit: Int
    ) -> [(service: Int, index: Int, match: EndpointMatch?)] {
        let terms = query.split(separator: " ").map { FuzzyMatch.lowered(String($0)) }
        let none = EndpointMatch(kind: .subsequence, score: 0, field: .id, positions: [:])
        var found: [(service: Int, index: Int, match: EndpointMatch)] = []
        var keys: [RankKey] = []
        for (serviceIndex, service) in services.enumerated() {
            let recent = recency[service.id] ?? [:]
            for index in service.endpoints.indices {
                guard let match = terms.isEmpty ? none : match(terms, service.endpoints[index], service: service.id) else { continue }
                let sent = recent.isEmpty ? Int.max : recent[service.endpoints[index].id] ?? Int.max
                keys.append(RankKey(match, recent: sent, service: serviceIndex, index: index, slot: found.count))
                found.append((serviceIndex, index, match))
            }
        }
        // Only the first `limit` are kept: sorting the best of them, not all, once there are many.
        if keys.count / 4 > limit {
            keys = smallest(limit, of: keys, by: RankKey.precedes)
        } else {
            keys.sort(by: RankKey.precedes)
        }
        return keys.prefix(limit).map {
            let entry = found[$0.slot]
            return (entry.service, entry.index, terms.isEmpty ? nil : entry.match)
        }
    }

    /// The `count` first of `items` in the order `precedes`, sorted (a bounded max-heap: n log k).
    package static func smallest<Item>(_ count: Int, of items: [Item], by precedes: (Item, Item) -> Bool) -> [Item] {
        guard count > 0 else { return [] }
        var heap: [Item] = []
        heap.reserveCapacity(count)
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count, precedes(heap[largest], heap[left]) { largest = left }
                if right < heap.count, precedes(heap[largest], heap[right]) { largest = right }
                if largest == parent { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        for item in items {
            if heap.count < count {
                heap.append(item)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard precedes(heap[parent], heap[child]) else { break }
                    heap.swapAt(parent, child)
                    child = parent
                }
            } else if precedes(item, heap[0]) {
                heap[0] = item
                siftDown(0)
            }
        }
        return heap.sorted(by: precedes)
    }

    /// What the order of matches reads, without the match's positions (sorting 10,000 of these
    /// copies no arrays or dictionaries).
    struct RankKey {
        var kind: FuzzyMatch.Kind
        var field: EndpointField
        var score: Int
        var recent: Int
        var service: Int
        var index: Int
        /// Where the match itself is kept.
        var slot: Int

        init(_ match: EndpointMatch, recent: Int, service: Int, index: Int, slot: Int) {
            kind = match.kind
            field = match.field
            score = match.score
            self.recent = recent
            self.service = service
            self.index = index
            self.slot = slot
        }

        /// The order of matches: by kind, then (for exact and prefix matches) the part that
        /// matched, then the recently sent, then the score, then the catalogs' order.
        static func precedes(_ a: RankKey, _ b: RankKey) -> Bool {
            if a.kind != b.kind { return a.kind > b.kind }
            if a.field != b.field, a.kind >= .prefix { return a.field.rawValue < b.field.rawValue }
            if a.recent != b.recent { return a.recent < b.recent }
            if a.score != b.score { return a.score > b.score }
            return (a.service, a.index) < (b.service, b.index)
        }
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
