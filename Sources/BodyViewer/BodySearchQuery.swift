/// A text search in a body.
///
/// Matching works on the body's bytes as shown: JSON escapes are matched as written (`\u00e9` is not `é`).
/// Case: `.smart` (the default) ignores case unless the query has an uppercase letter. Ignoring case folds
/// ASCII letters only; other letters match exactly as typed.
package struct BodySearchQuery: Sendable, Hashable {
    /// How letter case is treated.
    package enum CaseSensitivity: Sendable, Hashable {
        /// Case-insensitive unless the query contains an uppercase letter.
        case smart
        /// Always case-sensitive.
        case sensitive
        /// Always case-insensitive (ASCII letters).
        case insensitive
    }

    /// What to look for.
    package var text: String
    /// How case is treated.
    package var caseSensitivity: CaseSensitivity

    /// Makes a query.
    package init(_ text: String, caseSensitivity: CaseSensitivity = .smart) {
        self.text = text
        self.caseSensitivity = caseSensitivity
    }

    /// Whether letters must match in case, after applying smart case.
    package var isCaseSensitive: Bool {
        switch caseSensitivity {
        case .sensitive: true
        case .insensitive: false
        case .smart: text.unicodeScalars.contains { $0.properties.isUppercase }
        }
    }

    /// Whether the query can match anything.
    package var isEmpty: Bool { text.isEmpty }
}

/// How many matches a search found, possibly still counting.
package struct BodyMatchCount: Sendable, Hashable, CustomStringConvertible {
    /// Matches found so far.
    package var count: Int
    /// Whether the whole body has been searched.
    package var isComplete: Bool
    /// Share of the body searched, 0...1.
    package var fraction: Double

    /// Makes a count.
    package init(count: Int, isComplete: Bool, fraction: Double) {
        self.count = count
        self.isComplete = isComplete
        self.fraction = fraction
    }

    /// `1,234` when complete, `≥ 1,234…` while counting.
    package var description: String {
        isComplete ? BodyNumberFormat.grouped(count) : "≥ \(BodyNumberFormat.grouped(count))…"
    }
}

/// Thousands separators without Foundation's locale machinery (stable output for tests and snapshots).
package enum BodyNumberFormat {
    /// `1234567` as `1,234,567`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        result.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
