import FoundationEssentials
import JSONSupport

/// Why a query could not produce a result.
package enum BodyQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path expression does not parse; `column` is 1-based.
    case invalidPath(reason: String, column: Int)
    /// The body is not shown as JSON.
    case notJSON
    /// The selected values together exceed `limit` bytes; narrow the query.
    case resultTooLarge(limit: Int)

    /// What went wrong, for the person.
    package var description: String {
        switch self {
        case .invalidPath(let reason, let column): "column \(column): \(reason)"
        case .notJSON: "the body is not JSON"
        case .resultTooLarge(let limit):
            "the result is larger than \(BodyNumberFormat.grouped(limit)) bytes: narrow the query"
        }
    }
}

/// What a JSONPath query selected, as a document of its own.
package struct BodyQueryResult: Sendable {
    /// The selected values: the value itself for a singular path that matched, else a JSON array of them.
    package var document: BodyDocument
    /// How many values were selected.
    package var count: Int
    /// Whether the path was singular and matched, so `document` is the value itself.
    package var isSingleValue: Bool
}

extension BodyDocument {
    /// Evaluates a JSONPath expression (the subset documented on `JSONPath`) over the body's index, off the
    /// caller's thread and cancellably. The result is a new document: the single value for a singular
    /// path that matched, otherwise a JSON array of every selected value (`[]` when nothing matched).
    /// Results larger than `maximumResultBytes` (default: the body's size, at least 16 MiB) are refused.
    @concurrent
    package func query(_ expression: String, maximumResultBytes: Int? = nil) async throws -> BodyQueryResult {
        let path: JSONPath
        do {
            path = try JSONPath(expression)
        } catch {
            throw BodyQueryError.invalidPath(reason: error.reason, column: error.column)
        }
        return try await query(path, maximumResultBytes: maximumResultBytes)
    }

    /// Evaluates a parsed path; see `query(_:maximumResultBytes:)`.
    @concurrent
    package func query(_ path: JSONPath, maximumResultBytes: Int? = nil) async throws -> BodyQueryResult {
        guard case .json(let index) = storage, isComplete else { throw BodyQueryError.notJSON }
        let limit = maximumResultBytes ?? max(data.count, 16 << 20)
        let (output, count) = try withBytes { bytes throws -> (Data, Int) in
            var evaluator = JSONIndexEvaluator(index: index, bytes: bytes, shouldCancel: { Task.isCancelled })
            let nodes = try evaluator.evaluate(path.segments, from: evaluator.roots())
            let single = path.isSingular && nodes.count == 1
            var output = Data()
            if !single { output.append(UInt8(ascii: "[")) }
            for (position, node) in nodes.enumerated() {
                let range = evaluator.valueRange(ofLine: node)
                guard output.count + range.count < limit else { throw BodyQueryError.resultTooLarge(limit: limit) }
                if position > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
            }
            if !single { output.append(UInt8(ascii: "]")) }
            return (output, nodes.count)
        }
        let document = try await BodyDocument.build(data: output, contentType: "application/json")
        return BodyQueryResult(document: document, count: count, isSingleValue: path.isSingular && count == 1)
    }
}
