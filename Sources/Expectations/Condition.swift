import JSONSupport

/// Reads a condition written as one line (`$.status == "done"`, `status == 200`,
/// `header ETag exists`): a subject, an operator and a JSON literal (bare words are text).
package enum Condition {
    /// The operators, longest first so `<=` is not read as `<`.
    static let operators = ["==", "!=", "<=", ">=", "<", ">"]

    /// The predicate an operator makes with a value; nil when it compares numbers and the value is none.
    static func predicate(_ symbol: String, _ value: JSONValue) -> ValuePredicate? {
        switch symbol {
        case "==": .equals(value)
        case "!=": .notEquals(value)
        case "<=": value.doubleValue.map(ValuePredicate.lessThanOrEqual)
        case ">=": value.doubleValue.map(ValuePredicate.greaterThanOrEqual)
        case "<": value.doubleValue.map(ValuePredicate.lessThan)
        default: value.doubleValue.map(ValuePredicate.greaterThan)
        }
    }

    /// The assertion a condition states, or why it cannot be read.
    package static func parse(_ text: String) -> Result<Assertion, ConditionError> {
        let trimmed = text.trimmingSpaces
        if trimmed.hasSuffix(" exists") {
            return subject(String(trimmed.dropLast(" exists".count))).map { Assertion($0, .exists(true)) }
        }
        guard let (left, symbol, right) = split(trimmed) else {
            return .failure(ConditionError(message: "'\(trimmed)' has no comparison: write SUBJECT == VALUE (==, !=, <, <=, >, >=) or SUBJECT exists"))
        }
        let literal = right.trimmingSpaces
        let value: JSONValue
        if literal.count >= 2, literal.hasPrefix("'"), literal.hasSuffix("'") {
            value = .string(String(literal.dropFirst().dropLast()))
        } else {
            value = (try? JSONValue.parse(literal)) ?? .string(literal)
        }
        guard let predicate = predicate(symbol, value) else {
            return .failure(ConditionError(message: "'\(symbol)' compares numbers, not \(literal)"))
        }
        return subject(left).map { Assertion($0, predicate) }
    }

    /// `status`, `header NAME` or a JSONPath.
    static func subject(_ text: String) -> Result<Subject, ConditionError> {
        let trimmed = text.trimmingSpaces
        if trimmed == "status" { return .success(.status) }
        if trimmed.hasPrefix("header ") {
            let name = trimmed.dropFirst("header ".count).trimmingSpaces
            return name.isEmpty ? .failure(ConditionError(message: "'header' needs a name: header ETag")) : .success(.header(name))
        }
        guard trimmed.hasPrefix("$") else {
            return .failure(ConditionError(message: "'\(trimmed)' is not status, header NAME or a JSONPath ($.status)"))
        }
        do throws(JSONPathError) {
            return .success(.body(try JSONPath(trimmed)))
        } catch {
            return .failure(ConditionError(message: "\(trimmed) is not a JSONPath: \(error)"))
        }
    }

    /// The first operator outside brackets and quotes (a JSONPath filter holds its own `==`).
    static func split(_ text: String) -> (String, String, String)? {
        let characters = Array(text)
        var depth = 0
        var quote: Character?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" || character == "(" {
                depth += 1
            } else if character == "]" || character == ")" {
                depth -= 1
            } else if depth == 0 {
                for symbol in operators where characters[index...].starts(with: symbol) {
                    let left = String(characters[..<index])
                    let right = String(characters[(index + symbol.count)...])
                    return (left, symbol, right)
                }
            }
            index += 1
        }
        return nil
    }
}

/// Why a condition cannot be read.
package struct ConditionError: Error, Sendable, Hashable {
    /// What is wrong.
    package var message: String
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
