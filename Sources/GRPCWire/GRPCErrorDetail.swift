import FoundationEssentials
import GRPCProtobuf
import SwiftProtobuf
import TextSupport

/// One detail of a `google.rpc.Status`: the standard types of `google/rpc/error_details.proto`,
/// typed, and any other kept as its type URL and bytes.
package enum GRPCErrorDetail: Sendable, Hashable {
    case errorInfo(reason: String, domain: String, metadata: [String: String])
    case retryInfo(delay: Duration)
    case debugInfo(stack: [String], detail: String)
    case quotaFailure([QuotaViolation])
    case preconditionFailure([PreconditionViolation])
    case badRequest([FieldViolation])
    case requestInfo(requestID: String, servingData: String)
    case resourceInfo(type: String, name: String, owner: String, description: String)
    case help([HelpLink])
    case localizedMessage(locale: String, message: String)
    /// A type this does not know, or one that could not be decoded.
    case other(typeURL: String, bytes: [UInt8])

    package struct FieldViolation: Sendable, Hashable {
        package var field: String
        package var description: String
        package var reason: String

        package init(field: String, description: String, reason: String = "") {
            self.field = field
            self.description = description
            self.reason = reason
        }
    }

    package struct QuotaViolation: Sendable, Hashable {
        package var subject: String
        package var description: String

        package init(subject: String, description: String) {
            self.subject = subject
            self.description = description
        }
    }

    package struct PreconditionViolation: Sendable, Hashable {
        package var type: String
        package var subject: String
        package var description: String

        package init(type: String, subject: String, description: String) {
            self.type = type
            self.subject = subject
            self.description = description
        }
    }

    package struct HelpLink: Sendable, Hashable {
        package var url: String
        package var description: String

        package init(url: String, description: String) {
            self.url = url
            self.description = description
        }
    }

    /// The proto type's full name: `google.rpc.BadRequest`.
    package var typeName: String {
        switch self {
        case .errorInfo: "google.rpc.ErrorInfo"
        case .retryInfo: "google.rpc.RetryInfo"
        case .debugInfo: "google.rpc.DebugInfo"
        case .quotaFailure: "google.rpc.QuotaFailure"
        case .preconditionFailure: "google.rpc.PreconditionFailure"
        case .badRequest: "google.rpc.BadRequest"
        case .requestInfo: "google.rpc.RequestInfo"
        case .resourceInfo: "google.rpc.ResourceInfo"
        case .help: "google.rpc.Help"
        case .localizedMessage: "google.rpc.LocalizedMessage"
        case .other(let typeURL, _): String(typeURL.split(separator: "/").last ?? Substring(typeURL))
        }
    }

    /// The detail as lines a person reads (the Errors tab), cleaned of control characters.
    package var lines: [String] {
        let raw: [String]
        switch self {
        case .errorInfo(let reason, let domain, let metadata):
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            raw = ["ErrorInfo: \(reason) (domain \(domain))" + (pairs.isEmpty ? "" : "; " + pairs.joined(separator: ", "))]
        case .retryInfo(let delay):
            raw = ["RetryInfo: retry after \(Self.seconds(delay))"]
        case .debugInfo(let stack, let detail):
            raw = ["DebugInfo: \(detail)"] + stack.map { "  at \($0)" }
        case .quotaFailure(let violations):
            raw = violations.map { "QuotaFailure: \($0.subject): \($0.description)" }
        case .preconditionFailure(let violations):
            raw = violations.map { "PreconditionFailure: \($0.type) \($0.subject): \($0.description)" }
        case .badRequest(let violations):
            raw = violations.map { $0.line }
        case .requestInfo(let requestID, let servingData):
            raw = ["RequestInfo: request \(requestID)" + (servingData.isEmpty ? "" : "; \(servingData)")]
        case .resourceInfo(let type, let name, let owner, let description):
            raw = ["ResourceInfo: \(type) \(name)" + (owner.isEmpty ? "" : " (owner \(owner))") + (description.isEmpty ? "" : ": \(description)")]
        case .help(let links):
            raw = links.map { "Help: \($0.description) <\($0.url)>" }
        case .localizedMessage(let locale, let message):
            raw = ["LocalizedMessage (\(locale)): \(message)"]
        case .other(let typeURL, let bytes):
            raw = ["\(typeURL) (\(GRPCByteCount(bytes.count)), not a type apiexplorer decodes)"]
        }
        return raw.map(TerminalText.cleaned)
    }

    /// `1.5 s`, `30 s`, `250 ms`.
    package static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds == 0 { return "\(attoseconds / 1_000_000_000_000_000) ms" }
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
    }

    // MARK: GRPCProtobuf's types

    /// The detail of GRPCProtobuf's type.
    init(_ details: ErrorDetails) throws {
        if let info = details.errorInfo {
            self = .errorInfo(reason: info.reason, domain: info.domain, metadata: info.metadata)
        } else if let info = details.retryInfo {
            self = .retryInfo(delay: info.delay)
        } else if let info = details.debugInfo {
            self = .debugInfo(stack: info.stack, detail: info.detail)
        } else if let info = details.quotaFailure {
            self = .quotaFailure(info.violations.map { QuotaViolation(subject: $0.subject, description: $0.violationDescription) })
        } else if let info = details.preconditionFailure {
            self = .preconditionFailure(
                info.violations.map { PreconditionViolation(type: $0.type, subject: $0.subject, description: $0.violationDescription) })
        } else if let info = details.badRequest {
            self = .badRequest(info.violations.map { FieldViolation(field: $0.field, description: $0.violationDescription, reason: $0.reason) })
        } else if let info = details.requestInfo {
            self = .requestInfo(requestID: info.requestID, servingData: info.servingData)
        } else if let info = details.resourceInfo {
            self = .resourceInfo(type: info.type, name: info.name, owner: info.owner, description: info.errorDescription)
        } else if let info = details.help {
            self = .help(info.links.map { HelpLink(url: $0.url, description: $0.linkDescription) })
        } else if let info = details.localizedMessage {
            self = .localizedMessage(locale: info.locale, message: info.message)
        } else if let any = details.any {
            self = .other(typeURL: any.typeURL, bytes: Array(any.value))
        } else {
            throw GRPCWireError(.internalError, "an error detail of no known kind")
        }
    }

    /// The detail as GRPCProtobuf's type, to send (the mock's answers).
    package var packed: ErrorDetails {
        switch self {
        case .errorInfo(let reason, let domain, let metadata):
            .errorInfo(reason: reason, domain: domain, metadata: metadata)
        case .retryInfo(let delay):
            .retryInfo(delay: delay)
        case .debugInfo(let stack, let detail):
            .debugInfo(stack: stack, detail: detail)
        case .quotaFailure(let violations):
            .quotaFailure(violations: violations.map { .init(subject: $0.subject, description: $0.description) })
        case .preconditionFailure(let violations):
            .preconditionFailure(violations: violations.map { .init(type: $0.type, subject: $0.subject, description: $0.description) })
        case .badRequest(let violations):
            .badRequest(violations: violations.map { .init(field: $0.field, description: $0.description, reason: $0.reason, localizedMessage: nil) })
        case .requestInfo(let requestID, let servingData):
            .requestInfo(requestID: requestID, servingData: servingData)
        case .resourceInfo(let type, let name, let owner, let description):
            .resourceInfo(type: type, name: name, errorDescription: description, owner: owner)
        case .help(let links):
            .help(links: links.map { .init(url: $0.url, description: $0.description) })
        case .localizedMessage(let locale, let message):
            .localizedMessage(locale: locale, message: message)
        case .other(let typeURL, let bytes):
            .any(.with {
                $0.typeURL = typeURL
                $0.value = Data(bytes)
            })
        }
    }
}

extension GRPCErrorDetail.FieldViolation {
    /// `name: must not be empty (EMPTY)`, as the Errors tab and a bad request's messages show it.
    package var line: String {
        let field = self.field.isEmpty ? "" : "\(self.field): "
        return field + description + (reason.isEmpty ? "" : " (\(reason))")
    }
}
