/// Notes about the same repair made in many places (a HAR of 600 entries, each with its
/// pseudo-headers), gathered into one note per kind of repair that names where: the first place
/// as the note's source, a few more, and how many in all.
struct NoteTally {
    private var order: [String] = []
    private var places: [String: (kind: ImportNote.Kind, locations: [String])] = [:]

    /// Records that `message` applies at `location`.
    mutating func add(_ kind: ImportNote.Kind, _ message: String, at location: String) {
        if places[message] == nil {
            order.append(message)
            places[message] = (kind, [])
        }
        places[message]?.locations.append(location)
    }

    /// One note per message, in the order first seen.
    var notes: [ImportNote] {
        order.compactMap { message in
            guard let (kind, locations) = places[message], let first = locations.first else { return nil }
            guard locations.count > 1 else { return ImportNote(kind, at: first, message) }
            let shown = locations.dropFirst().prefix(4).map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? $0 }
            let more = locations.count > 5 ? ", …" : ""
            return ImportNote(kind, at: first, "\(message) (\(locations.count) places; also \(shown.joined(separator: ", "))\(more))")
        }
    }
}
