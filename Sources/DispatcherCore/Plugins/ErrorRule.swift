import JSONSupport

/// A rule of the error filter: responses with a matching status (and, optionally, a value found in
/// the body) become an error of `kind`. Catalogs define these; the first matching rule wins.
public struct ErrorRule: Sendable, Hashable {
    /// Which statuses a rule applies to.
    public enum StatusMatch: Sendable, Hashable {
        /// Every status.
        case any
        /// These statuses.
        case codes(Set<Int>)
        /// Statuses in the range (e.g. 200...299 for errors hidden in successes).
        case range(ClosedRange<Int>)

        /// Whether `status` matches.
        public func matches(_ status: Int) -> Bool {
            switch self {
            case .any: true
            case .codes(let codes): codes.contains(status)
            case .range(let range): range.contains(status)
            }
        }
    }

    /// Where the error's message comes from.
    public enum Message: Sendable, Hashable {
        /// A fixed sentence.
        case text(String)
        /// Strings gathered from the body by a JSONPath (`$.errors[*].message`).
        case path(JSONPath)
        /// Each of a GraphQL body's `errors` with its path (`Cannot query field "x" (at pet.owner)`).
        case graphQLErrors
    }

    /// Shown as the error's source (`petstore.yaml: errors[2]`).
    public var name: String
    /// Statuses it applies to.
    public var statuses: StatusMatch
    /// When set, the rule applies only if this selects something in the JSON body that is not
    /// null, false or empty: how an error hidden inside a 200 is found.
    public var when: JSONPath?
    /// The kind of error produced.
    public var kind: ErrorKind
    /// The error's message; nil gathers messages from the body, else uses the kind's sentence.
    public var message: Message?
    /// The identifiers of the requests it applies to (`pets/getPet`); nil: every request.
    public var targets: Set<String>?

    /// Makes a rule.
    public init(
        name: String, statuses: StatusMatch, when: JSONPath? = nil, kind: ErrorKind, message: Message? = nil, targets: Set<String>? = nil
    ) {
        self.name = name
        self.targets = targets
        self.statuses = statuses
        self.when = when
        self.kind = kind
        self.message = message
    }

    /// Whether the rule looks at `request` at all (its status and body decide the rest).
    public func applies(to request: Request) -> Bool {
        targets.map { $0.contains(request.identifier) } ?? true
    }
}
