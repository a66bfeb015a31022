/// Notes that say the same thing in many places (a HAR of 600 entries, each with its
/// pseudo-headers; 400 requests of a collection with the same script), gathered: one per kind and
/// message, with every place it applies to, in the order first seen.
package struct ImportNoteGroup: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    package var kind: ImportNote.Kind
    /// What happened and why, in words.
    package var message: String
    /// Where, in the order found (empty for remarks about the whole document).
    package var places: [String]

    /// The notes grouped: identical kind and message make one group.
    package static func grouping(_ notes: [ImportNote]) -> [ImportNoteGroup] {
        var order: [ImportNoteGroup] = []
        var index: [String: Int] = [:]
        for note in notes {
            let key = "\(note.kind.rawValue)\u{0}\(note.message)"
            if let position = index[key] {
                if let source = note.source, !order[position].places.contains(source) { order[position].places.append(source) }
            } else {
                index[key] = order.count
                order.append(ImportNoteGroup(kind: note.kind, message: note.message, places: note.source.map { [$0] } ?? []))
            }
        }
        return order
    }

    /// `PLACE: MESSAGE` for one place; `MESSAGE (N places: A, B, C, …)` with the first `shown` places for more.
    package func text(showing shown: Int) -> String {
        switch places.count {
        case 0: return message
        case 1: return "\(places[0]): \(message)"
        default:
            let listed = places.prefix(shown).joined(separator: ", ")
            return "\(message) (\(places.count) places: \(listed)\(places.count > shown ? ", …" : ""))"
        }
    }

    /// The text with the first five places.
    package var description: String { text(showing: 5) }
}
