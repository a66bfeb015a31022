/// Why a key description could not be read.
package struct KeyParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was not understood.
    package var text: String
    /// What is wrong with it.
    package var reason: String
    /// "cannot read key 'X': reason".
    package var description: String { "cannot read key '\(text)': \(reason)" }
}

extension KeyEvent: CustomStringConvertible, LosslessStringConvertible {
    /// Names of non-character keys as written in key descriptions (the first name is canonical).
    static let keyNames: [(Key, [String])] = [
        (.enter, ["Enter", "Return", "CR", "Ret"]), (.escape, ["Esc", "Escape"]), (.tab, ["Tab"]),
        (.backTab, ["BTab", "BackTab"]), (.backspace, ["Backspace", "BSpace", "BS"]),
        (.delete, ["Delete", "Del", "DC"]), (.insert, ["Insert", "Ins", "IC"]),
        (.up, ["Up"]), (.down, ["Down"]), (.left, ["Left"]), (.right, ["Right"]),
        (.home, ["Home"]), (.end, ["End"]), (.pageUp, ["PageUp", "PgUp", "PPage"]),
        (.pageDown, ["PageDown", "PgDn", "NPage"]),
    ]

    /// Reads a key description: an optional chain of `C-`, `M-` (or `A-`), `S-` prefixes, then a
    /// single character, `Space`, a key name (`Enter`, `Esc`, `Tab`, `Up`, `PageDown`, `F1` …).
    /// `S-Tab` is Shift-Tab. Names are case-insensitive; a lone character is taken as it is.
    package init(parsing text: String) throws(KeyParseError) {
        var rest = Substring(text)
        var modifiers: KeyModifiers = []
        while rest.count > 2, rest.dropFirst().first == "-" {
            switch rest.first?.uppercased() {
            case "C": modifiers.insert(.ctrl)
            case "M", "A": modifiers.insert(.alt)
            case "S": modifiers.insert(.shift)
            default: throw KeyParseError(text: text, reason: "unknown modifier '\(rest.prefix(2))' (use C-, M- or S-)")
            }
            rest = rest.dropFirst(2)
        }
        guard !rest.isEmpty else { throw KeyParseError(text: text, reason: "no key") }
        if rest.count == 1, let character = rest.first {
            guard DisplayWidth.of(character) > 0 || character == " " else {
                throw KeyParseError(text: text, reason: "control characters are written as names or C-x")
            }
            self.init(.character(character), modifiers: modifiers)
            return
        }
        let name = rest.lowercased()
        if name == "space" || name == "spc" {
            self.init(.character(" "), modifiers: modifiers)
        } else if let (key, _) = Self.keyNames.first(where: { $0.1.contains { $0.lowercased() == name } }) {
            self.init(key, modifiers: modifiers)
        } else if name.first == "f", let number = Int(name.dropFirst()), (1...24).contains(number) {
            self.init(.function(number), modifiers: modifiers)
        } else {
            throw KeyParseError(text: text, reason: "unknown key name")
        }
        if key == .tab && self.modifiers.contains(.shift) {
            key = .backTab
            self.modifiers.remove(.shift)
        }
    }

    /// Reads a key description, or nil when it is not one.
    package init?(_ description: String) {
        guard let event = try? KeyEvent(parsing: description) else { return nil }
        self = event
    }

    /// Reads a whitespace-separated sequence such as "j j Enter C-c".
    package static func parseSequence(_ text: String) throws(KeyParseError) -> [KeyEvent] {
        var events: [KeyEvent] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            events.append(try KeyEvent(parsing: String(word)))
        }
        return events
    }

    /// The canonical description, which `init(parsing:)` reads back: "j", "C-c", "M-x", "S-Tab",
    /// "Enter", "Space", "F5", "C-Left".
    package var description: String {
        var prefix = ""
        if modifiers.contains(.ctrl) { prefix += "C-" }
        if modifiers.contains(.alt) { prefix += "M-" }
        if modifiers.contains(.shift) || key == .backTab { prefix += "S-" }
        switch key {
        case .character(" "): return prefix + "Space"
        case .character(let character): return prefix + String(character)
        case .backTab: return prefix + "Tab"
        case .function(let number): return prefix + "F\(number)"
        default:
            let name = Self.keyNames.first { $0.0 == key }?.1.first ?? "?"
            return prefix + name
        }
    }
}
