import JSONSupport

/// A GraphQL request as a catalog writes it (`graphql: { query, variables, operationName }`). It
/// is sent as the JSON body GraphQL servers read over HTTP, so placeholders render as in any JSON
/// body; the endpoint keeps it to know its errors come inside a 200 (see `ErrorRule.graphQL`).
package struct GraphQLOperation: Sendable, Hashable {
    /// The document (`query GetPet($id: ID!) { pet(id: $id) { name } }`); may hold placeholders.
    package var query: String
    /// The variables, in file order; strings inside may hold placeholders.
    package var variables: JSONObject?
    /// Which operation of the document to run, when it holds several.
    package var operationName: String?

    /// Makes an operation.
    package init(query: String, variables: JSONObject? = nil, operationName: String? = nil) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
    }

    /// Reads an operation back from the body it is sent as: a non-empty text `query`, and beside
    /// it only a mapping of `variables` and a text `operationName`; nil for any other JSON.
    package init?(requestBody: JSONValue) {
        guard case .object(let object) = requestBody, case .string(let query)? = object["query"], !query.isEmpty else { return nil }
        self.init(query: query)
        for member in object {
            switch (member.key, member.value) {
            case ("query", _): continue
            case ("variables", .object(let variables)): self.variables = variables
            case ("operationName", .string(let name)): operationName = name
            default: return nil
            }
        }
    }

    /// The body sent: `{"query": …, "variables": …, "operationName": …}`, absent members left out.
    package var requestBody: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("query", .string(query))]
        if let variables { members.append(("variables", .object(variables))) }
        if let operationName { members.append(("operationName", .string(operationName))) }
        return .object(JSONObject(members))
    }
}
