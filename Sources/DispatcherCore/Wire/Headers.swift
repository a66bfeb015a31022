/// Where a request header came from, so a person can see why it is there.
public enum HeaderOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A common header of the named environment.
    case environment(String)
    /// A header of the named group of endpoints.
    case group(String)
    /// A header the endpoint itself declares.
    case endpoint
    /// Derived from the request body (Content-Type).
    case body
    /// Added by the named request interceptor's adapt step.
    case interceptor(String)
    /// Added by the named authentication plugin.
    case auth(String)
    /// Added by another named plugin or hook.
    case plugin(String)
    /// Sent by the server (response headers).
    case server
    /// Set by the person in the explorer for this endpoint (an edit not yet saved to its catalog).
    case edited

    public var description: String {
        switch self {
        case .environment(let name): "environment \(name)"
        case .group(let name): "group \(name)"
        case .endpoint: "endpoint"
        case .body: "body"
        case .interceptor(let name): "interceptor \(name)"
        case .auth(let name): "auth \(name)"
        case .plugin(let name): "plugin \(name)"
        case .server: "server"
        case .edited: "edited"
        }
    }
}

/// One header with where it came from and which earlier values it replaced.
public struct HeaderField: Sendable, Hashable {
    /// The name as written.
    public var name: String
    /// The value.
    public var value: String
    /// Where the value came from.
    public var origin: HeaderOrigin
    /// Origins of values this one replaced, oldest first (precedence: environment → group → endpoint → interceptor/auth).
    public var overrides: [HeaderOrigin]

    /// Makes a header field.
    public init(name: String, value: String, origin: HeaderOrigin, overrides: [HeaderOrigin] = []) {
        self.name = name
        self.value = value
        self.origin = origin
        self.overrides = overrides
    }
}

/// An ordered list of HTTP headers with case-insensitive lookup. Keeps repeated fields
/// (`Set-Cookie`) when added, replaces them when set.
public struct Headers: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    public private(set) var fields: [HeaderField]

    /// Makes headers from fields.
    public init(_ fields: [HeaderField] = []) { self.fields = fields }

    /// Makes headers from name/value pairs, all from `origin`.
    public init(_ pairs: [(String, String)], origin: HeaderOrigin) {
        fields = pairs.map { HeaderField(name: $0.0, value: $0.1, origin: origin) }
    }

    /// Headers literal; the origin is `.endpoint`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements, origin: .endpoint)
    }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> HeaderField { fields[position] }

    /// The first value for `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        field(named: name)?.value
    }

    /// The first field named `name`, compared case-insensitively.
    public func field(named name: String) -> HeaderField? {
        fields.first { Headers.sameName($0.name, name) }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Headers.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { field(named: name) != nil }

    /// Sets `name` to `value`, replacing every earlier field of that name and remembering their origins.
    public mutating func set(_ name: String, _ value: String, origin: HeaderOrigin) {
        guard let first = fields.firstIndex(where: { Headers.sameName($0.name, name) }) else {
            fields.append(HeaderField(name: name, value: value, origin: origin))
            return
        }
        var replaced: [HeaderOrigin] = []
        var position: Int?
        var index = first
        while index < fields.count {
            if Headers.sameName(fields[index].name, name) {
                replaced += fields[index].overrides + [fields[index].origin]
                if position == nil {
                    position = index
                    index += 1
                } else {
                    fields.remove(at: index)
                }
            } else {
                index += 1
            }
        }
        let field = HeaderField(name: name, value: value, origin: origin, overrides: replaced)
        if let position { fields[position] = field } else { fields.append(field) }
    }

    /// Appends a field, keeping earlier fields of the same name.
    public mutating func add(_ name: String, _ value: String, origin: HeaderOrigin) {
        fields.append(HeaderField(name: name, value: value, origin: origin))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Headers.sameName($0.name, name) }
    }

    /// Sets every field of `other` over these, each keeping `origin`.
    public mutating func merge(_ other: Headers, origin: HeaderOrigin) {
        for field in other.fields { set(field.name, field.value, origin: origin) }
    }

    /// Makes room for `count` fields in all, so that adding them does not reallocate.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Whether two header names are the same (ASCII case-insensitive).
    package static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        // Runs for every header against every name looked up or set: the bytes are compared in
        // place (small strings lend theirs from the stack), not through two string iterators.
        let left = lhs.utf8, right = rhs.utf8
        guard left.count == right.count else { return false }
        let compared = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                for offset in 0..<leftBytes.count {
                    let a = leftBytes[offset], b = rightBytes[offset]
                    if a != b, UTF8Search.lower(a) != UTF8Search.lower(b) { return false }
                }
                return true
            }
        }
        if let compared, let compared { return compared }
        return left.elementsEqual(right) { $0 == $1 || UTF8Search.lower($0) == UTF8Search.lower($1) }
    }
}
