import NIOHPACK
import TextSupport

/// The header blocks of a gRPC call over HTTP/2 (gRPC's PROTOCOL-HTTP2 document): what a client
/// sends and checks, what a server checks and answers. Pure: no connection here.
package enum GRPCHeaders {
    /// Names a response's metadata leaves out: they are the call's framing or its status.
    static let framingNames: Set<String> = ["grpc-status", "grpc-message"]

    // MARK: Client

    /// The request's HEADERS: pseudo-headers, then gRPC's own fields, then the caller's metadata.
    package static func request(
        path: String, authority: String, secure: Bool, metadata: GRPCMetadata, encoding: GRPCMessageEncoding, userAgent: String
    ) -> HPACKHeaders {
        var headers = HPACKHeaders()
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: secure ? "https" : "http")
        headers.add(name: ":path", value: path)
        headers.add(name: ":authority", value: authority)
        headers.add(name: "content-type", value: "application/grpc")
        headers.add(name: "te", value: "trailers")
        if metadata["user-agent"] == nil { headers.add(name: "user-agent", value: userAgent) }
        headers.add(name: "grpc-accept-encoding", value: GRPCMessageEncoding.acceptHeader)
        if encoding != .identity { headers.add(name: "grpc-encoding", value: encoding.rawValue) }
        metadata.appended(to: &headers)
        return headers
    }

    /// What a client makes of a response's first HEADERS.
    package enum ResponseHead: Sendable, Hashable {
        /// A gRPC response: its metadata, and the `grpc-encoding` its messages use (nil: identity).
        case accepted(metadata: GRPCMetadata, encodingName: String?)
        /// The call ended at once (trailers-only, or a response that is not gRPC): its status and metadata.
        case ended(GRPCStatus, metadata: GRPCMetadata)
    }

    /// Reads the response's first HEADERS (`endStream`: it also ends the stream, "trailers-only").
    /// A response that is not HTTP 200 with a gRPC content type ends the call with the status
    /// gRPC's HTTP-to-gRPC table gives, and a message that says what came instead.
    package static func responseHead(_ headers: HPACKHeaders, endStream: Bool, authority: String) -> ResponseHead {
        let httpStatus = headers.first(name: ":status").flatMap { Int($0) }
        let contentType = headers.first(name: "content-type")
        let hasStatus = headers.first(name: "grpc-status") != nil
        if httpStatus != 200 && !hasStatus {
            let code = httpStatus.map(statusCode(forHTTPStatus:)) ?? .internalError
            let what = httpStatus.map { "HTTP \($0)" } ?? "a response without :status"
            let type = contentType.map { " (content-type \($0))" } ?? ""
            let message = "\(authority) answered \(what)\(type) instead of a gRPC response: is it a gRPC server, and is the method's path right?"
            return .ended(GRPCStatus(code: code, message: message), metadata: (try? GRPCMetadata(headers: headers)) ?? GRPCMetadata())
        }
        if !isGRPCContentType(contentType) && !(endStream && hasStatus) {
            let type = contentType.map { "content-type \($0)" } ?? "no content-type"
            let message = "\(authority) answered with \(type), not application/grpc: it is not a gRPC server, or not for this method."
            return .ended(GRPCStatus(code: .unknown, message: message), metadata: (try? GRPCMetadata(headers: headers)) ?? GRPCMetadata())
        }
        if endStream {
            let (status, metadata) = trailers(headers, authority: authority)
            return .ended(status, metadata: metadata)
        }
        do {
            let metadata = try GRPCMetadata(headers: headers)
            return .accepted(metadata: metadata, encodingName: headers.first(name: "grpc-encoding"))
        } catch {
            return .ended(GRPCStatus(code: .internalError, message: "\(authority) sent a malformed header: \(error)"), metadata: GRPCMetadata())
        }
    }

    /// The status and trailing metadata of a call's last HEADERS.
    package static func trailers(_ headers: HPACKHeaders, authority: String) -> (GRPCStatus, GRPCMetadata) {
        let metadata: GRPCMetadata
        do {
            metadata = try GRPCMetadata(headers: headers, skipping: framingNames)
        } catch {
            return (GRPCStatus(code: .internalError, message: "\(authority) sent a malformed trailer: \(error)"), GRPCMetadata())
        }
        guard let value = headers.first(name: "grpc-status") else {
            return (GRPCStatus(code: .internalError, message: "\(authority) ended the call without a grpc-status."), metadata)
        }
        guard let number = Int(value.trimmedSpaces) else {
            return (GRPCStatus(code: .unknown, message: "\(authority) sent grpc-status '\(value)', which is not a status code."), metadata)
        }
        var message = GRPCMessageText.decode(headers.first(name: "grpc-message") ?? "")
        if GRPCStatusCode(rawValue: number) == nil { message = "grpc-status \(number) (not a gRPC code)" + (message.isEmpty ? "" : ": \(message)") }
        // `grpc-status-details-bin` stays in the metadata: the caller decodes it (GRPCStatus(code:message:detailsBytes:)).
        return (GRPCStatus(code: GRPCStatusCode(wireValue: number), message: message), metadata)
    }

    /// gRPC's table for a response that is not HTTP 200 (gRPC's http-grpc-status-mapping document).
    package static func statusCode(forHTTPStatus status: Int) -> GRPCStatusCode {
        switch status {
        case 400: .internalError
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .unimplemented
        case 429, 502, 503, 504: .unavailable
        default: .unknown
        }
    }

    /// `application/grpc`, also with a `+proto`-style suffix or parameters.
    package static func isGRPCContentType(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return value == "application/grpc" || value.hasPrefix("application/grpc+") || value.hasPrefix("application/grpc;")
    }

    // MARK: Server

    /// What a server makes of a request's HEADERS.
    package enum RequestHead: Sendable, Hashable {
        /// A gRPC request for `service`/`method`.
        case accepted(service: String, method: String, metadata: GRPCMetadata, encodingName: String?)
        /// Refused before any handler runs: the HTTP status and the gRPC status to answer with.
        case refused(httpStatus: Int, GRPCStatus)
    }

    /// Checks a request's HEADERS: POST, a gRPC content type, a `/service/method` path, an encoding it reads.
    package static func requestHead(_ headers: HPACKHeaders) -> RequestHead {
        guard headers.first(name: ":method") == "POST" else {
            return .refused(httpStatus: 405, GRPCStatus(code: .internalError, message: "gRPC calls are POST requests."))
        }
        let contentType = headers.first(name: "content-type")
        guard isGRPCContentType(contentType) else {
            return .refused(
                httpStatus: 415, GRPCStatus(code: .internalError, message: "content-type \(contentType ?? "(none)") is not application/grpc."))
        }
        let path = headers.first(name: ":path") ?? ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            return .refused(httpStatus: 200, GRPCStatus(code: .unimplemented, message: "'\(path)' is not a /service/method path."))
        }
        let encodingName = headers.first(name: "grpc-encoding")
        if let encodingName, GRPCMessageEncoding(header: encodingName) == nil {
            return .refused(
                httpStatus: 200,
                GRPCStatus(code: .unimplemented, message: "grpc-encoding '\(encodingName)' is not supported (\(GRPCMessageEncoding.acceptHeader))."))
        }
        do {
            let metadata = try GRPCMetadata(headers: headers, skipping: ["te", "content-type", "grpc-encoding", "grpc-accept-encoding"])
            return .accepted(service: String(parts[1]), method: String(parts[2]), metadata: metadata, encodingName: encodingName)
        } catch {
            return .refused(httpStatus: 200, GRPCStatus(code: .internalError, message: "a malformed header: \(error)"))
        }
    }

    /// A response's first HEADERS, before its messages.
    package static func responseHeaders(metadata: GRPCMetadata) -> HPACKHeaders {
        var headers = HPACKHeaders()
        headers.add(name: ":status", value: "200")
        headers.add(name: "content-type", value: "application/grpc")
        headers.add(name: "grpc-accept-encoding", value: GRPCMessageEncoding.acceptHeader)
        metadata.removing(reservedResponseNames).appended(to: &headers)
        return headers
    }

    /// A response's last HEADERS; `trailersOnly` when no HEADERS went before (then `:status` and
    /// `content-type` lead, as a response's first HEADERS must).
    package static func trailers(status: GRPCStatus, metadata: GRPCMetadata, trailersOnly: Bool, httpStatus: Int = 200) -> HPACKHeaders {
        var headers = HPACKHeaders()
        if trailersOnly {
            headers.add(name: ":status", value: String(httpStatus))
            headers.add(name: "content-type", value: "application/grpc")
        }
        headers.add(name: "grpc-status", value: String(status.code.rawValue))
        if !status.message.isEmpty { headers.add(name: "grpc-message", value: GRPCMessageText.encode(status.message)) }
        metadata.removing(reservedResponseNames).appended(to: &headers)
        return headers
    }

    /// Names a handler's metadata cannot set in a response: the transport writes them.
    static let reservedResponseNames: Set<String> = [
        "content-type", "grpc-status", "grpc-message", "grpc-encoding", "grpc-accept-encoding",
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ]
}
