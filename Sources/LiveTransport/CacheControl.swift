import FoundationEssentials
import DispatcherCore
import TextSupport

/// The `Cache-Control` directives a private cache acts on (RFC 9111 §5.2), from a request or a response.
struct CacheControl: Sendable, Hashable {
    /// `max-age=N` in seconds.
    var maxAge: Int?
    /// `max-stale` (nil: absent; `Int.max` when given without a value: any staleness).
    var maxStale: Int?
    /// `min-fresh=N` in seconds.
    var minFresh: Int?
    /// `no-store`: never store.
    var noStore = false
    /// `no-cache` (with or without field names): always revalidate before use.
    var noCache = false
    /// `must-revalidate`: a stale response is never used without revalidation.
    var mustRevalidate = false
    /// `public`: storable even without other signals.
    var isPublic = false
    /// `only-if-cached` (request): never go to the network.
    var onlyIfCached = false

    /// Reads every `Cache-Control` field of `headers`; `Pragma: no-cache` counts as `no-cache`
    /// when there is no `Cache-Control` (RFC 9111 §5.4).
    init(_ headers: Headers) {
        let values = headers.values(for: "Cache-Control")
        if values.isEmpty {
            noCache = headers.values(for: "Pragma").contains { $0.lowercased().contains("no-cache") }
            return
        }
        for value in values {
            for directive in CacheControl.directives(in: value) {
                switch directive.name {
                case "max-age": maxAge = directive.seconds ?? 0
                case "max-stale": maxStale = directive.value == nil ? Int.max : directive.seconds ?? 0
                case "min-fresh": minFresh = directive.seconds ?? 0
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                case "public": isPublic = true
                case "only-if-cached": onlyIfCached = true
                default: break
                }
            }
        }
    }

    /// The directives of one field value: `name` or `name=token` or `name="quoted, text"`.
    static func directives(in value: String) -> [(name: String, value: String?, seconds: Int?)] {
        var result: [(String, String?, Int?)] = []
        var index = value.startIndex
        while index < value.endIndex {
            // name
            var nameEnd = index
            while nameEnd < value.endIndex, value[nameEnd] != "=", value[nameEnd] != "," { nameEnd = value.index(after: nameEnd) }
            let name = value[index..<nameEnd].trimmedSpaces.lowercased()
            index = nameEnd
            var argument: String?
            if index < value.endIndex, value[index] == "=" {
                index = value.index(after: index)
                while index < value.endIndex, value[index] == " " { index = value.index(after: index) }
                if index < value.endIndex, value[index] == "\"" {
                    index = value.index(after: index)
                    var text = ""
                    while index < value.endIndex, value[index] != "\"" {
                        if value[index] == "\\" { index = value.index(after: index) }
                        if index < value.endIndex {
                            text.append(value[index])
                            index = value.index(after: index)
                        }
                    }
                    if index < value.endIndex { index = value.index(after: index) }
                    argument = text
                } else {
                    var end = index
                    while end < value.endIndex, value[end] != "," { end = value.index(after: end) }
                    argument = value[index..<end].trimmedSpaces
                    index = end
                }
            }
            // skip to the next directive
            while index < value.endIndex, value[index] != "," { index = value.index(after: index) }
            if index < value.endIndex { index = value.index(after: index) }
            if !name.isEmpty { result.append((name, argument, argument.flatMap(CacheControl.deltaSeconds))) }
        }
        return result
    }

    /// A delta-seconds value; too large a number counts as "very long" (RFC 9111 §1.2.2).
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text) ?? Int(Int32.max)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}
