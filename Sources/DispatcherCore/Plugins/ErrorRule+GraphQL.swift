import JSONSupport

extension ErrorRule {
    /// The kind GraphQL errors are mapped into.
    package static let graphQLErrorKind = ErrorKind.custom("graphQLError")

    /// The rule's name, shown as the error's source.
    package static let graphQLRuleName = "graphQL errors (built in)"

    /// The built-in rule for GraphQL endpoints: a 2xx whose JSON body holds a non-empty `errors`
    /// list is a `graphQLError` (GraphQL answers a failed operation inside a successful response).
    /// `targets` are the identifiers of the requests that carry GraphQL operations, so a REST
    /// endpoint answering `errors: […]` is left to the catalog's own rules.
    package static func graphQL(targets: Set<String>) -> ErrorRule {
        ErrorRule(
            name: graphQLRuleName, statuses: .range(200...299), when: firstGraphQLError, kind: graphQLErrorKind,
            message: .graphQLErrors, targets: targets)
    }

    /// `errors[0]`: found only when `errors` is a list with something in it (`errors: []` is a success).
    private static let firstGraphQLError: JSONPath = {
        do { return try JSONPath("$.errors[0]") } catch { preconditionFailure("the built-in GraphQL rule's path does not parse: \(error)") }
    }()

    /// Each of the body's `errors` as `message (at pet.owner)`, the path written as GraphQL
    /// responses give it (`pets[0].name` for list positions); an error without a `message`
    /// member gives what the usual members say.
    package static func graphQLMessages(in body: JSONValue) -> [String] {
        guard case .object(let object) = body, case .array(let errors)? = object["errors"] else { return [] }
        var messages: [String] = []
        for error in errors {
            let text: String
            if case .object(let members) = error, case .string(let message)? = members["message"] {
                text = message
            } else {
                text = ErrorFilter.gatherMessages([error]).joined(separator: "; ")
            }
            guard !text.isEmpty else { continue }
            let path = graphQLPath(of: error)
            messages.append(path.isEmpty ? text : "\(text) (at \(path))")
        }
        return messages
    }

    /// `["pets", 0, "name"]` as `pets[0].name`.
    private static func graphQLPath(of error: JSONValue) -> String {
        guard case .object(let members) = error, case .array(let steps)? = members["path"] else { return "" }
        var path = ""
        for step in steps {
            switch step {
            case .string(let name): path += path.isEmpty ? name : ".\(name)"
            case .number(let index): path += "[\(index)]"
            default: continue
            }
        }
        return path
    }
}
