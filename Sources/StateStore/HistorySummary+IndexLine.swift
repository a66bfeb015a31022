import Catalog
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HistorySummary {
    /// Reads an index line as `json` writes it, straight from its bytes: the general reader
    /// builds a JSON tree for every line, and a launch reads the whole index beside its first frame.
    ///
    /// Only the plain case is read here: one flat object of ASCII strings without escapes, an
    /// integer status and a `values` object of such strings. Anything else (an escape, other
    /// text, another kind of value, an unknown key, a damaged line) is nil, and the caller reads
    /// the line the general way; what this returns is what the general way would.
    init?(indexLine line: UnsafeRawBufferPointer) {
        var reader = IndexLineReader(bytes: line)
        // Plain fields, not a dictionary by key: hashing cost more than the rest of a line.
        var fields = IndexFields()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                guard let keyBytes = reader.plainString(), let key = IndexLineReader.Key(keyBytes), reader.take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case .status:
                    guard let number = reader.integer() else { return nil }
                    fields.status = number
                case .time:
                    guard let number = reader.integer() else { return nil }
                    fields.time = number
                case .values:
                    guard let members = reader.flatStringObject() else { return nil }
                    fields.values = members
                default:
                    guard let text = reader.plainString() else { return nil }
                    let value = String(decoding: text, as: UTF8.self)
                    switch key {
                    case .id: fields.id = value
                    case .date: fields.date = value
                    case .catalog: fields.catalog = value
                    case .service: fields.service = value
                    case .endpoint: fields.endpoint = value
                    case .environment: fields.environment = value
                    case .mode: fields.mode = value
                    case .method: fields.method = value
                    case .url: fields.url = value
                    case .example: fields.example = value
                    case .statusText: fields.statusText = value
                    case .error: fields.error = value
                    case .status, .values, .time: return nil
                    }
                }
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        guard reader.isAtEnd else { return nil }
        self.init(fields)
    }
}

/// A cursor over an index line's bytes for `HistorySummary(indexLine:)`; every method answers
/// nil or false for what it does not read, leaving the line to the general reader.
struct IndexLineReader {
    /// The keys `HistorySummary.json` writes.
    enum Key: CaseIterable {
        case id, date, catalog, service, endpoint, environment, mode, method, url, example, values, status, statusText, error, time

        /// The key as it is written.
        var name: StaticString {
            switch self {
            case .id: "id"
            case .date: "date"
            case .catalog: "catalog"
            case .service: "service"
            case .endpoint: "endpoint"
            case .environment: "environment"
            case .mode: "mode"
            case .method: "method"
            case .url: "url"
            case .example: "example"
            case .values: "values"
            case .status: "status"
            case .statusText: "statusText"
            case .error: "error"
            case .time: "timeUs"
            }
        }

        /// The key written as `bytes`, compared byte by byte (no string is made).
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return nil }
            for key in Key.allCases where key.name.utf8CodeUnitCount == bytes.count && memcmp(key.name.utf8Start, base, bytes.count) == 0 {
                self = key
                return
            }
            return nil
        }
    }

    let bytes: UnsafeRawBufferPointer
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    /// Takes `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string of printable ASCII without escapes, quotes included; its bytes without them.
    mutating func plainString() -> UnsafeRawBufferPointer? {
        guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress,
            let quote = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index)
        else { return nil }
        let text = UnsafeRawBufferPointer(start: base + index, count: base.distance(to: UnsafeRawPointer(quote)) - index)
        // An escape, a control character or other text: the general reader's work.
        for byte in text where byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\") { return nil }
        index += text.count + 1
        return text
    }

    /// An integer written as digits (a minus sign allowed), as `Int(literal)` reads it.
    mutating func integer() -> Int? {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
            index += 1
        }
        // JSON allows no leading zero; a fraction or an exponent is the general reader's.
        guard index > start, index - start == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") { return nil }
        return negative ? -value : value
    }

    /// An object whose values are all plain strings; a later duplicate key wins.
    mutating func flatStringObject() -> [String: String]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [String: String] = [:]
        if take(UInt8(ascii: "}")) { return members }
        repeat {
            guard let key = plainString(), take(UInt8(ascii: ":")), let value = plainString() else { return nil }
            members[String(decoding: key, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? members : nil
    }
}
