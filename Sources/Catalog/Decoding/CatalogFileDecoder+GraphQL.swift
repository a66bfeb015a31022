import JSONSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let graphQLKeys = ["query", "variables", "operationName"]

    /// `graphql: { query: "…", variables: { id: "{{petId}}" }, operationName: GetPet }`; nil after an error.
    func decodeGraphQL(_ node: YAMLNode, _ what: @autoclosure () -> String) -> GraphQLOperation? {
        let subject = "the graphql body of \(what())"
        guard let fields = entries(node, subject, allowed: Self.graphQLKeys) else { return nil }
        require(["query"], in: fields, of: node, subject)
        let before = errorCount
        var operation = GraphQLOperation(query: "")
        for field in fields {
            switch field.key {
            case "query": operation.query = graphQLText(field.value, "the query of \(subject)") ?? ""
            case "variables":
                guard case .mapping = field.value.content else {
                    error("the variables of \(subject) must be a mapping of names to values, not \(describe(field.value))", at: field.value)
                    continue
                }
                if case .object(let object)? = json(field.value, "the variables of \(subject)") { operation.variables = object }
            case "operationName": operation.operationName = graphQLText(field.value, "the operationName of \(subject)")
            default: break
            }
        }
        return errorCount == before ? operation : nil
    }

    /// Text written as text: a number or a boolean here is a mistake, not a document.
    private func graphQLText(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard case .scalar(let scalar) = node.content, case .string = YAMLScalar(scalar) else {
            error("\(what()) must be text, not \(describe(node))", at: node)
            return nil
        }
        guard let text = nonEmptyText(node, what()) else { return nil }
        return text
    }
}
