import Catalog
import JSONSupport
import ProtoJSON

/// A gRPC endpoint's request message checked against its method's input type, as the Edit tab
/// shows it while the body is typed: what would stop the call, at its JSON path, before it is sent.
package struct RPCMessageCheck: Sendable, Hashable {
    package struct Field: Sendable, Hashable {
        package var name: String
        package var type: String
    }

    /// The method, as the catalog names it.
    package var method: String
    /// `unary`, `server streaming`, `client streaming` or `bidirectional`.
    package var kind: String
    /// The input type's full name.
    package var input: String
    /// The input type's fields: JSON name, then what JSON it takes (enum values listed).
    package var fields: [Field]
    /// Nil when the body fits; else why not, a JSON path first where there is one.
    package var problem: String?

    /// Checks `body` (the request message as JSON; for a client stream a list of messages) for
    /// `endpoint`'s method; nil for an endpoint that is no gRPC method or whose set is not read yet.
    package static func check(_ body: String, endpoint: CatalogEndpoint, descriptors: Result<DescriptorPool, RPCDescriptorProblem>?) -> RPCMessageCheck? {
        guard let rpc = endpoint.rpc, let descriptors else { return nil }
        let pool: DescriptorPool
        switch descriptors {
        case .success(let read): pool = read
        case .failure(let problem): return RPCMessageCheck(method: rpc.method, kind: "", input: "", fields: [], problem: problem.message)
        }
        guard let method = pool.method(named: rpc.method.replacing("/", with: ".")) else {
            return RPCMessageCheck(method: rpc.method, kind: "", input: "", fields: [], problem: "the descriptor set has no method \(rpc.method)")
        }
        let kind =
            switch (method.clientStreaming, method.serverStreaming) {
            case (false, false): "unary"
            case (false, true): "server streaming"
            case (true, false): "client streaming"
            case (true, true): "bidirectional"
            }
        let fields = pool.fieldInfo(of: method.input).map { field in
            Field(name: field.jsonName, type: field.enumValues.isEmpty ? field.jsonType : "\(field.jsonType): \(field.enumValues.joined(separator: " | "))")
        }
        var check = RPCMessageCheck(method: rpc.method, kind: kind, input: pool[method.input].fullName, fields: fields, problem: nil)
        check.problem = problem(in: body, method: method, pool: pool)
        return check
    }

    private static func problem(in body: String, method: MethodDescriptor, pool: DescriptorPool) -> String? {
        // A large body is checked when sent, not on every frame.
        guard body.utf8.count <= RequestPreview.largeBodyBytes else { return nil }
        guard body.contains(where: { !$0.isWhitespace }) else { return nil }
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            return "not JSON: line \(error.line), column \(error.column): \(error.reason)"
        }
        let messages: [JSONValue]
        if method.clientStreaming, case .array(let elements) = json { messages = elements } else { messages = [json] }
        for (index, message) in messages.enumerated() {
            do {
                _ = try pool.encodeJSON(message, as: method.input)
            } catch {
                return messages.count == 1 ? error.description : "message \(index + 1): \(error.description)"
            }
        }
        return nil
    }
}
