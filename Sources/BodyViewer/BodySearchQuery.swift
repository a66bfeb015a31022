/// A text search in a body.
///
/// Matching works on the body's bytes as shown: JSON escapes are matched as written (`\u00e9` is not `é`).
/// Case: `.smart` (the default) ignores case unless the query has an uppercase letter. Ignoring case folds
/// ASCII letters only; other letters match exactly as typed.
public struct BodySearchQuery: Sendable, Hashable {
    /// How letter case is treated.
    public enum CaseSensitivity: Sendable, Hashable {
        /// Case-insensitive unless the query contains an uppercase letter.
        case smart
        /// Always case-sensitive.
        case sensitive
        /// Always case-insensitive (ASCII letters).
        case insensitive
    }

    /// What to look for.
    public var text: String
    /// How case is treated.
    public var caseSensitivity: CaseSensitivity

    /// Makes a query.
    public init(_ text: String, caseSensitivity: CaseSensitivity = .smart) {
        self.text = text
        self.caseSensitivity = caseSensitivity
    }

    /// Whether letters must match in case, after applying smart case.
    public var isCaseSensitive: Bool {
        switch caseSensitivity {
        case .sensitive: true
        case .insensitive: false
        case .smart: text.unicodeScalars.contains { $0.properties.isUppercase }
        }
    }

    /// Whether the query can match anything.
    public var isEmpty: Bool { text.isEmpty }
}

/// How many matches a search found, possibly still counting.
public struct BodyMatchCount: Sendable, Hashable, CustomStringConvertible {
    /// Matches found so far.
    public var count: Int
    /// Whether the whole body has been searched.
    public var isComplete: Bool
    /// Share of the body searched, 0...1.
    public var fraction: Double

    /// Makes a count.
    public init(count: Int, isComplete: Bool, fraction: Double) {
        self.count = count
        self.isComplete = isComplete
        self.fraction = fraction
    }

    /// `1,234` when complete, `≥ 1,234…` while counting.
    public var description: String {
        isComplete ? BodyNumberFormat.grouped(count) : "≥ \(BodyNumberFormat.grouped(count))…"
    }
}

/// Thousands separators without Foundation's locale machinery (stable output for tests and snapshots).
public enum BodyNumberFormat {
    /// `1234567` as `1,234,567`.
    public static func grouped(_ value: Int) -> String {
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
