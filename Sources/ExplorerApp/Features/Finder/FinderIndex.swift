import Catalog

/// Every endpoint's searchable parts as UTF-8, made once when the finder opens (not per key), and
/// the endpoints the last queries matched, so a query that grows by a character re-scores only
/// the previous matches (a match of `abc` in a part is a match of `ab` there).
package struct FinderIndex: Sendable {
    struct Entry: Sendable {
        var service: Int
        var index: Int
        var id: String
        var serviceID: String
        /// By `EndpointField.rawValue`; nil where the part is absent (or a title equal to the id).
        var parts: [[UInt8]?]
    }

    private(set) var entries: [Entry] = []
    /// The matches of recent queries, shortest query first; each query a prefix of the next.
    private var narrowing: [(query: String, matches: [Int])] = []
    /// How many endpoints the last search scored (what the narrowing saves; tests count it).
    package private(set) var scored = 0

    /// The most queries whose matches are kept (each at most every endpoint's index).
    static let depth = 32

    init() {}

    init(_ services: [Service]) {
        for (serviceIndex, service) in services.enumerated() {
            for (index, endpoint) in service.endpoints.enumerated() {
                let parts = EndpointField.allCases.map { field in
                    EndpointTree.text(field, of: endpoint, service: service.id).map { Array($0.utf8) }
                }
                entries.append(Entry(service: serviceIndex, index: index, id: endpoint.id, serviceID: service.id, parts: parts))
            }
        }
    }

    /// The endpoints matching `query`, best first as `EndpointTree.rankedAcross` ranks, at most
    /// `limit`; with no query, the recently sent first, then the catalogs' order.
    mutating func ranked(_ query: String, recency: [String: [String: Int]], limit: Int) -> [(service: Int, index: Int, match: EndpointMatch?)] {
        let terms = query.split(separator: " ").map { FuzzyMatch.lowered(String($0)) }
        while let last = narrowing.last, !query.hasPrefix(last.query) { narrowing.removeLast() }
        let candidates: [Int]
        if terms.isEmpty {
            candidates = Array(entries.indices)
        } else if let last = narrowing.last {
            candidates = last.matches
        } else {
            candidates = Array(entries.indices)
        }
        scored = terms.isEmpty ? 0 : candidates.count
        var matched: [Int] = []
        var found: [TopItem] = []
        for candidate in candidates {
            let entry = entries[candidate]
            let match: EndpointMatch
            if terms.isEmpty {
                match = EndpointMatch(kind: .subsequence, score: 0, field: .id, positions: [:])
            } else {
                guard let found = EndpointTree.match(terms, { term, field in
                    entry.parts[field.rawValue].flatMap { FuzzyMatch.match(term, in: $0) }
                }) else { continue }
                match = found
                matched.append(candidate)
            }
            found.append((match, recency[entry.serviceID]?[entry.id] ?? Int.max, entry.service, entry.index))
        }
        if !terms.isEmpty, narrowing.last?.query != query {
            narrowing.append((query, matched))
            if narrowing.count > Self.depth { narrowing.removeFirst() }
        }
        let best = EndpointTree.smallest(limit, of: found, by: Self.precedes)
        return best.map { ($0.service, $0.index, terms.isEmpty ? nil : $0.match) }
    }
}

extension FinderIndex {
    typealias TopItem = (match: EndpointMatch, recent: Int, service: Int, index: Int)

    /// The tree's order of matches.
    static func precedes(_ a: TopItem, _ b: TopItem) -> Bool {
        EndpointTree.RankKey.precedes(
            EndpointTree.RankKey(a.match, recent: a.recent, service: a.service, index: a.index, slot: 0),
            EndpointTree.RankKey(b.match, recent: b.recent, service: b.service, index: b.index, slot: 0))
    }
}
