import DispatcherCore
import Foundation
import GRPCCalls
import GRPCTransport
import GRPCWire
import Synchronization
import TestSupport

/// What the call tests share: the Python server's methods and messages, and a connection made,
/// used and closed.
enum Probe {
    static let echo = GRPCMethodPath(service: "routeguide.Probe", method: "Echo")
    static let stream = GRPCMethodPath(service: "routeguide.Probe", method: "Stream")
    static let getFeature = GRPCMethodPath(service: "routeguide.RouteGuide", method: "GetFeature")
    static let listFeatures = GRPCMethodPath(service: "routeguide.RouteGuide", method: "ListFeatures")
    static let recordRoute = GRPCMethodPath(service: "routeguide.RouteGuide", method: "RecordRoute")
    static let routeChat = GRPCMethodPath(service: "routeguide.RouteGuide", method: "RouteChat")

    /// An EchoRequest: text 1, sleep_ms 2, fail_with 3, reply_bytes 4, count 5, interval_ms 6, compress 7.
    static func echoRequest(
        _ text: String = "", sleepMilliseconds: Int = 0, failWith: String = "", replyBytes: Int = 0, count: Int = 0, intervalMilliseconds: Int = 0,
        compress: Bool = false
    ) -> [UInt8] {
        var fields = ProtobufFields([(1, .text(text))])
        if sleepMilliseconds > 0 { fields.fields.append((2, .number(Int64(sleepMilliseconds)))) }
        if !failWith.isEmpty { fields.fields.append((3, .text(failWith))) }
        if replyBytes > 0 { fields.fields.append((4, .number(Int64(replyBytes)))) }
        if count > 0 { fields.fields.append((5, .number(Int64(count)))) }
        if intervalMilliseconds > 0 { fields.fields.append((6, .number(Int64(intervalMilliseconds)))) }
        if compress { fields.fields.append((7, .number(1))) }
        return fields.encoded
    }

    static func point(_ latitude: Int, _ longitude: Int) -> ProtobufFields {
        [1: .number(Int64(latitude)), 2: .number(Int64(longitude))]
    }

    /// An EchoReply's metadata map (field 2: entries of key 1, value 2).
    static func echoedMetadata(_ reply: ProtobufFields) -> [String: String] {
        var found: [String: String] = [:]
        for case .bytes(let entry) in reply.values(2) {
            let fields = ProtobufFields(decoding: entry) ?? ProtobufFields()
            found[fields.text(1)] = fields.text(2)
        }
        return found
    }

    static var caTrust: ServerTrust {
        ServerTrust(certificateAuthority: TestCertificates.ca.certificateURL)
    }

    /// A connection to 127.0.0.1:`port`, closed after `body`.
    static func withConnection<T>(
        port: Int, tls: ServerTrust? = nil, settings: GRPCConnectionSettings = GRPCConnectionSettings(), _ body: (GRPCConnection) async throws -> T
    ) async throws -> T {
        let target = GRPCTarget(host: "127.0.0.1", port: port, secure: tls != nil, trust: tls ?? ServerTrust())
        let connection = try GRPCConnection(target: target, settings: settings)
        return try await withShutdown { try await body(connection) } shutdown: { await connection.close() }
    }

    /// A unary call's only message, decoded.
    static func reply(_ result: GRPCCallResult) -> ProtobufFields {
        result.messages.first.flatMap(ProtobufFields.init(decoding:)) ?? ProtobufFields()
    }
}

/// Events a call handed out, in order.
final class EventLog: Sendable {
    private let events = Mutex<[GRPCCallEvent]>([])

    var all: [GRPCCallEvent] { events.withLock { $0 } }

    var messageCount: Int {
        events.withLock { $0.filter { if case .message = $0 { true } else { false } }.count }
    }

    func record(_ event: GRPCCallEvent) {
        events.withLock { $0.append(event) }
    }
}
