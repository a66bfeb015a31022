import FoundationEssentials
import JSONSupport
import ProtoJSON

/// A gRPC endpoint's request body (JSON, as the catalog and `--message` write it) as the encoded
/// request messages, checked against the method's input type before anything is sent.
package enum RPCMessages {
    /// The method `package.Service/Method` (or `/package.Service/Method`) in `pool`.
    package static func method(_ name: String, in pool: DescriptorPool) throws(RPCMessageError) -> MethodDescriptor {
        let trimmed = name.hasPrefix("/") ? String(name.dropFirst()) : name
        let dotted = trimmed.replacing("/", with: ".")
        guard let method = pool.method(named: dotted) else {
            let service = String(trimmed.prefix { $0 != "/" })
            if let known = pool.service(named: service) {
                let names = known.methods.map(\.name).joined(separator: ", ")
                throw RPCMessageError("\(service) has no method '\(trimmed.dropFirst(service.count + 1))'; it has \(names).")
            }
            let services = pool.services.map(\.fullName).joined(separator: ", ")
            throw RPCMessageError("The descriptor set has no service '\(service)'\(services.isEmpty ? "" : "; it has \(services)").")
        }
        return method
    }

    /// The body's messages, encoded: one message (`{}` when the body is empty), or for a client
    /// stream a JSON list of messages. A wrong field name or type is an error at its JSON path.
    package static func encode(body: Data?, method: MethodDescriptor, pool: DescriptorPool) throws(RPCMessageError) -> [[UInt8]] {
        let json: JSONValue
        if let body, !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            do {
                json = try JSONValue.parse(body, rejectingDuplicateKeys: true)
            } catch {
                throw RPCMessageError("The request message is not JSON: \(error)")
            }
        } else {
            json = .object(JSONObject())
        }
        let messages: [JSONValue]
        if method.clientStreaming, case .array(let elements) = json { messages = elements } else { messages = [json] }
        var encoded: [[UInt8]] = []
        encoded.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            do {
                encoded.append(try pool.encodeJSON(message, as: method.input))
            } catch {
                let which = messages.count == 1 ? "The request message" : "Request message \(index + 1)"
                throw RPCMessageError("\(which) does not fit \(pool[method.input].fullName): \(error)")
            }
        }
        return encoded
    }

    /// Response messages as JSON: one message for a method that answers once, a list for a stream.
    package static func json(of messages: [[UInt8]], method: MethodDescriptor, pool: DescriptorPool) throws(RPCMessageError) -> JSONValue {
        var values: [JSONValue] = []
        values.reserveCapacity(messages.count)
        for (index, message) in messages.enumerated() {
            do {
                values.append(try pool.decodeToJSON(message, as: method.output))
            } catch {
                throw RPCMessageError("Response message \(index + 1) does not decode as \(pool[method.output].fullName): \(error)")
            }
        }
        if !method.serverStreaming, values.count == 1 { return values[0] }
        return .array(values)
    }
}

/// Why a request message could not be made, or a response message read.
package struct RPCMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
