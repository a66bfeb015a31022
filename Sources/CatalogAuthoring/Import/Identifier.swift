/// Makes ids and secret names from free text.
enum Identifier {
    /// Letters, digits, `-`, `_` and `.` kept; runs of anything else, dashes included, become one
    /// `-` (`Twilio - API` → `Twilio-API`, never `Twilio---API`); no dash or dot at either end (a
    /// title's full stop is not part of an id: `Gotify REST API.` → `Gotify-REST-API`); never empty.
    static func make(_ text: String, fallback: String) -> String {
        let made = joined(text)
        let trimmed = made.trimming { $0 == "." || $0 == "-" }
        return trimmed.isEmpty ? fallback : String(trimmed)
    }

    private static func joined(_ text: String) -> String {
        var result = ""
        var pendingDash = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII, (scalar.properties.isAlphabetic || scalar.properties.numericType != nil) || scalar == "_" || scalar == "." {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return result
    }

    /// `lowerCamelCase` from words: `get`, `user repos` → `getUserRepos`.
    static func camelCase(_ words: [String], fallback: String) -> String {
        let parts = words.flatMap { $0.split { !$0.isLetter && !$0.isNumber } }.map(String.init).filter { !$0.isEmpty }
        guard let first = parts.first else { return fallback }
        let rest = parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let text = first.prefix(1).lowercased() + first.dropFirst() + rest.joined()
        return make(text, fallback: fallback)
    }

    /// `SHOP_API_KEY` from `shop`, `api-key`.
    static func secretName(_ parts: String...) -> String {
        let underscored = parts.joined(separator: "_").uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        // `shop.` and `api key` make `SHOP_API_KEY`, never `SHOP__API_KEY`.
        let words = underscored.split(separator: "_", omittingEmptySubsequences: true)
        return words.isEmpty ? "SECRET" : words.joined(separator: "_")
    }

    /// A name for a placeholder made from a parameter's name: letters, digits and `_` kept, the
    /// comparison signs APIs put in names spelled out (`DateCreated<` → `DateCreated_before`,
    /// `DateCreated>` → `DateCreated_after`), anything else `_`.
    static func variable(_ name: String) -> String {
        var result = ""
        for character in name {
            switch character {
            case "<": result += "_before"
            case ">": result += "_after"
            case "=": result += result.hasSuffix("_before") || result.hasSuffix("_after") ? "_or_equal" : "_eq"
            case "!": result += "_not"
            case _ where character.isLetter || character.isNumber || character == "_": result.append(character)
            default: result.append("_")
            }
        }
        return result.isEmpty ? "value" : result
    }
}

/// Hands out ids that are not taken yet: `name`, then `name2`, `name3` …
struct UniqueNames {
    private(set) var taken: Set<String>

    /// Names already taken count as used.
    init(taken: Set<String> = []) { self.taken = taken }

    /// `base` when free, else the first free of `alternatives` (names that say more: the folder
    /// it is in, its parameters), else `base2`, `base3` …; the result is taken.
    mutating func claim(_ base: String, alternatives: [String]) -> String {
        if !taken.contains(base) { return claim(base) }
        for alternative in alternatives where !taken.contains(alternative) { return claim(alternative) }
        return claim(base)
    }

    /// `base` when free, else `base2`, `base3` …; the result is taken.
    mutating func claim(_ base: String) -> String {
        var name = base
        var number = 2
        while taken.contains(name) {
            name = "\(base)\(number)"
            number += 1
        }
        taken.insert(name)
        return name
    }
}
