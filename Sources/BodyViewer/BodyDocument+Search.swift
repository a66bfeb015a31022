import Synchronization

/// The outcome of moving to a match.
package enum BodySearchOutcome: Sendable, Hashable {
    /// A match was found; `wrapped` when the search went past the end (or start) to find it.
    case found(wrapped: Bool)
    /// Nothing matches.
    case notFound
    /// Not within the bytes scanned on the spot: `BodyDocument.firstMatch(of:from:)` looks further
    /// in the background, and `BodyViewState.showMatch(_:for:in:)` moves there.
    case pending
}

/// Where a scan for the first match at or after an offset (wrapping) ended.
package enum BodyMatchScan: Sendable, Hashable {
    /// A match starts at `offset`; `wrapped` when it lies before where the scan began.
    case found(offset: Int, wrapped: Bool)
    /// Nothing matches anywhere.
    case none
    /// The scan stopped first (its byte limit, or its task cancelled).
    case unfinished
}

/// Match offsets of the last fully counted query, so next/previous are binary searches.
final class SearchCache: Sendable {
    /// Most offsets kept (4 bytes each); beyond this, next/previous scan the bytes instead.
    static let capacity = 16 << 20

    private let entry = Mutex<(query: BodySearchQuery, offsets: [UInt32])?>(nil)

    func offsets(for query: BodySearchQuery) -> [UInt32]? {
        entry.withLock { $0?.query == query ? $0?.offsets : nil }
    }

    func store(_ offsets: [UInt32], for query: BodySearchQuery) {
        entry.withLock { $0 = (query, offsets) }
    }
}

extension BodyDocument {
    /// Counts the matches of `query` in the background, yielding a running count after each chunk and a
    /// complete count at the end. Ending the iteration cancels the count. Once complete, next/previous
    /// for this query are binary searches over the recorded matches. The count runs on the caller's task
    /// executor preference, if any (so a UI can keep it off the threads its run loop needs).
    package func matchCounts(for query: BodySearchQuery, chunkSize: Int = 4 << 20) -> AsyncStream<BodyMatchCount> {
        AsyncStream { continuation in
            let task = Task(priority: .utility) { [self] in
                _ = self.collectMatches(of: query, chunkSize: chunkSize) { count in
                    continuation.yield(count)
                    return !Task.isCancelled
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Counts the matches of `query` on the calling thread (for small bodies and tests).
    package func countMatches(for query: BodySearchQuery) -> Int {
        collectMatches(of: query, chunkSize: .max) { _ in true } ?? 0
    }

    /// The 1-based number of the match starting at `offset`, once the query has been fully counted.
    package func matchNumber(at offset: Int, for query: BodySearchQuery) -> Int? {
        guard let offsets = searchCache.offsets(for: query) else { return nil }
        let position = Self.firstIndex(in: offsets, notBelow: offset)
        return position < offsets.count && Int(offsets[position]) == offset ? position + 1 : nil
    }

    /// Scans chunk by chunk, counting non-overlapping matches; returns nil when `report` asks to stop.
    private func collectMatches(of query: BodySearchQuery, chunkSize: Int, report: (BodyMatchCount) -> Bool) -> Int? {
        guard !query.isEmpty else {
            _ = report(BodyMatchCount(count: 0, isComplete: true, fraction: 1))
            return 0
        }
        return withBytes { bytes -> Int? in
            let finder = BodyMatchFinder(query, document: self, bytes: bytes)
            var offsets: [UInt32]? = bytes.count < Int(UInt32.max) ? [] : nil
            var count = 0
            var position = 0
            while position < bytes.count {
                let limit = chunkSize >= bytes.count - position ? bytes.count : position + chunkSize
                while let match = finder.first(from: position, startLimit: limit) {
                    count += 1
                    if offsets != nil {
                        if count <= SearchCache.capacity { offsets?.append(UInt32(match)) } else { offsets = nil }
                    }
                    position = match + finder.length
                }
                position = max(position, limit)
                if position < bytes.count {
                    let fraction = Double(position) / Double(bytes.count)
                    guard report(BodyMatchCount(count: count, isComplete: false, fraction: fraction)) else { return nil }
                }
            }
            if let offsets { searchCache.store(offsets, for: query) }
            _ = report(BodyMatchCount(count: count, isComplete: true, fraction: 1))
            return count
        }
    }

    /// The first match starting at or after `offset`, wrapping to the start.
    func nextMatch(of query: BodySearchQuery, from offset: Int) -> (offset: Int, wrapped: Bool)? {
        if let offsets = searchCache.offsets(for: query) {
            guard let first = offsets.first else { return nil }
            let position = Self.firstIndex(in: offsets, notBelow: offset)
            return position < offsets.count ? (Int(offsets[position]), false) : (Int(first), true)
        }
        return withBytes { bytes in
            let finder = BodyMatchFinder(query, document: self, bytes: bytes)
            if let match = finder.first(from: offset, startLimit: bytes.count) { return (match, false) }
            return finder.first(from: 0, startLimit: min(offset, bytes.count)).map { ($0, true) }
        }
    }

    /// As `nextMatch(of:from:)`, scanning at most `limit` bytes (a frame's worth) on the calling thread.
    func nextMatch(of query: BodySearchQuery, from offset: Int, scanning limit: Int) -> BodyMatchScan {
        if searchCache.offsets(for: query) != nil {
            return nextMatch(of: query, from: offset).map { .found(offset: $0.offset, wrapped: $0.wrapped) } ?? .none
        }
        return withBytes { bytes in
            let finder = BodyMatchFinder(query, document: self, bytes: bytes)
            let start = min(offset, bytes.count)
            let end = limit >= bytes.count - start ? bytes.count : start + limit
            if let match = finder.first(from: start, startLimit: end) { return .found(offset: match, wrapped: false) }
            guard end == bytes.count else { return .unfinished }
            let left = limit - (bytes.count - start)
            let wrapEnd = min(start, left)
            if let match = finder.first(from: 0, startLimit: wrapEnd) { return .found(offset: match, wrapped: true) }
            return wrapEnd < start ? .unfinished : .none
        }
    }

    /// The first match at or after `offset`, wrapping to the start, scanned chunk by chunk on the
    /// calling task: `.unfinished` as soon as that task is cancelled (a newer query replaced it).
    package func firstMatch(of query: BodySearchQuery, from offset: Int, chunkSize: Int = 4 << 20) -> BodyMatchScan {
        if searchCache.offsets(for: query) != nil {
            return nextMatch(of: query, from: offset).map { .found(offset: $0.offset, wrapped: $0.wrapped) } ?? .none
        }
        return withBytes { bytes in
            let finder = BodyMatchFinder(query, document: self, bytes: bytes)
            let start = min(offset, bytes.count)
            for (from, end, wrapped) in [(start, bytes.count, false), (0, start, true)] {
                var position = from
                while position < end {
                    if Task.isCancelled { return .unfinished }
                    let limit = chunkSize >= end - position ? end : position + chunkSize
                    if let match = finder.first(from: position, startLimit: limit) { return .found(offset: match, wrapped: wrapped) }
                    position = limit
                }
            }
            return .none
        }
    }

    /// The last match starting before `offset`, wrapping to the end.
    func previousMatch(of query: BodySearchQuery, before offset: Int) -> (offset: Int, wrapped: Bool)? {
        if let offsets = searchCache.offsets(for: query) {
            guard let last = offsets.last else { return nil }
            let position = Self.firstIndex(in: offsets, notBelow: offset)
            return position > 0 ? (Int(offsets[position - 1]), false) : (Int(last), true)
        }
        return withBytes { bytes in
            let finder = BodyMatchFinder(query, document: self, bytes: bytes)
            if let match = finder.last(before: offset) { return (match, false) }
            return finder.last(before: bytes.count, lowerLimit: offset).map { ($0, true) }
        }
    }

    static func firstIndex(in offsets: [UInt32], notBelow offset: Int) -> Int {
        var low = 0
        var high = offsets.count
        while low < high {
            let middle = (low + high) / 2
            if Int(offsets[middle]) < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension BodyViewState {
    /// Starts or refines an incremental search: moves to the first match at or after where the search
    /// began (the cursor line when it started), wrapping. A match hidden in folds is revealed by unfolding
    /// the folds around it. An empty or nil query ends the search.
    @discardableResult
    package mutating func search(for query: BodySearchQuery?, in document: BodyDocument) -> BodySearchOutcome {
        guard let query, !query.isEmpty else {
            search = nil
            return .notFound
        }
        let origin = search?.origin ?? document.startOffset(ofLine: min(cursorLine, max(0, document.lineCount - 1)))
        search = BodySearchState(query: query, origin: origin, count: search?.query == query ? search?.count : nil)
        return find(forward: true, from: origin, in: document)
    }

    /// As `search(for:in:)`, scanning at most `limit` bytes on the spot: a match further away is
    /// `.pending`, the cursor left where it was until `showMatch(_:for:in:)` brings the background
    /// scan's answer.
    @discardableResult
    package mutating func search(for query: BodySearchQuery?, in document: BodyDocument, scanning limit: Int) -> BodySearchOutcome {
        guard let query, !query.isEmpty else {
            search = nil
            return .notFound
        }
        let origin = search?.origin ?? document.startOffset(ofLine: min(cursorLine, max(0, document.lineCount - 1)))
        search = BodySearchState(query: query, origin: origin, count: search?.query == query ? search?.count : nil)
        return show(document.nextMatch(of: query, from: origin, scanning: limit), in: document)
    }

    /// Moves to a match a background scan found for `query`; nil when the search has moved on
    /// (another query, or none) or the scan did not finish, and nothing changes.
    @discardableResult
    package mutating func showMatch(_ scan: BodyMatchScan, for query: BodySearchQuery, in document: BodyDocument) -> BodySearchOutcome? {
        guard search?.query == query, scan != .unfinished else { return nil }
        return show(scan, in: document)
    }

    private mutating func show(_ scan: BodyMatchScan, in document: BodyDocument) -> BodySearchOutcome {
        guard let query = search?.query else { return .notFound }
        switch scan {
        case .found(let offset, let wrapped):
            let match = offset..<offset + query.text.utf8.count
            search?.currentMatch = match
            reveal(match, in: document)
            return .found(wrapped: wrapped)
        case .none:
            search?.currentMatch = nil
            return .notFound
        case .unfinished:
            search?.currentMatch = nil
            return .pending
        }
    }

    /// Moves to the next match after the cursor (after the current match when the cursor is on it).
    @discardableResult
    package mutating func findNext(in document: BodyDocument) -> BodySearchOutcome {
        guard let search else { return .notFound }
        if let match = search.currentMatch, document.line(containingOffset: match.lowerBound) == cursorLine {
            return find(forward: true, from: match.lowerBound + 1, in: document)
        }
        return find(forward: true, from: document.startOffset(ofLine: cursorLine), in: document)
    }

    /// Moves to the previous match before the cursor (before the current match when the cursor is on it).
    @discardableResult
    package mutating func findPrevious(in document: BodyDocument) -> BodySearchOutcome {
        guard let search else { return .notFound }
        if let match = search.currentMatch, document.line(containingOffset: match.lowerBound) == cursorLine {
            return find(forward: false, from: match.lowerBound, in: document)
        }
        return find(forward: false, from: document.startOffset(ofLine: cursorLine), in: document)
    }

    /// Records a count from `BodyDocument.matchCounts(for:)` if it is for the current query.
    package mutating func updateMatchCount(_ count: BodyMatchCount, for query: BodySearchQuery) {
        guard search?.query == query else { return }
        search?.count = count
    }

    /// Ends the search.
    package mutating func clearSearch() { search = nil }

    private mutating func find(forward: Bool, from offset: Int, in document: BodyDocument) -> BodySearchOutcome {
        guard let query = search?.query else { return .notFound }
        let found = forward ? document.nextMatch(of: query, from: offset) : document.previousMatch(of: query, before: offset)
        guard let found else {
            search?.currentMatch = nil
            return .notFound
        }
        let match = found.offset..<found.offset + query.text.utf8.count
        search?.currentMatch = match
        reveal(match, in: document)
        return .found(wrapped: found.wrapped)
    }

    /// Puts the cursor on the line of `match`, unfolding what hides it and scrolling it into view.
    mutating func reveal(_ match: Range<Int>, in document: BodyDocument) {
        let line = document.line(containingOffset: match.lowerBound)
        if case .json(let index) = document.storage {
            navigate(document) { navigator, state in
                for open in navigator.foldedAncestors(of: line) {
                    state.folds.set(false, line: open, depth: index.depth(ofLine: open))
                }
            }
        }
        cursorLine = line
        navigate(document) { navigator, state in
            if state.isWrapping {
                let row = navigator.row(ofSource: match.lowerBound, inLine: line)
                state.reveal(row: row, ofLine: line, navigator)
            } else {
                let column = navigator.column(ofSource: match.lowerBound, inLine: line)
                let width = navigator.textWidth
                if column < state.horizontalOffset || column + match.count > state.horizontalOffset + width {
                    state.horizontalOffset = max(0, column - width / 3)
                }
                state.revealCursor(navigator)
                state.clampTop(navigator)
            }
        }
    }
}
