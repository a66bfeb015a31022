import GRPCCore

/// A method as gRPC names it on the wire: `/package.Service/Method`.
package struct GRPCMethodPath: Sendable, Hashable, CustomStringConvertible {
    /// The service's full name: `routeguide.RouteGuide`.
    package var service: String
    /// The method's name: `GetFeature`.
    package var method: String

    package init(service: String, method: String) {
        self.service = service
        self.method = method
    }

    /// Reads `package.Service/Method`, `/package.Service/Method` or `package.Service.Method` (grpcurl takes all three).
    package init(parsing text: String) throws(GRPCRequestError) {
        var trimmed = Substring(text)
        if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        let service: Substring
        let method: Substring
        if let slash = trimmed.lastIndex(of: "/") {
            service = trimmed[..<slash]
            method = trimmed[trimmed.index(after: slash)...]
        } else if let dot = trimmed.lastIndex(of: ".") {
            service = trimmed[..<dot]
            method = trimmed[trimmed.index(after: dot)...]
        } else {
            throw GRPCRequestError("'\(text)' is not a method: write SERVICE/METHOD, e.g. routeguide.RouteGuide/GetFeature.")
        }
        let valid: (Substring) -> Bool = { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } && !part.hasPrefix(".") && !part.hasSuffix(".")
        }
        guard valid(service), valid(method), !method.contains(".") else {
            throw GRPCRequestError("'\(text)' is not a method: write SERVICE/METHOD, e.g. routeguide.RouteGuide/GetFeature.")
        }
        self.service = String(service)
        self.method = String(method)
    }

    /// `/routeguide.RouteGuide/GetFeature`.
    package var path: String { "/\(service)/\(method)" }

    /// GRPCCore's descriptor.
    var descriptor: MethodDescriptor { MethodDescriptor(fullyQualifiedService: service, method: method) }

    /// `routeguide.RouteGuide/GetFeature`.
    package var description: String { "\(service)/\(method)" }
}

/// A call that cannot be made as asked (bad metadata, a method name, the wrong number of
/// messages for its kind): nothing was sent.
package struct GRPCRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
