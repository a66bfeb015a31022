import GRPCCore
import GRPCProtobuf
import SwiftProtobuf

/// `grpc-status-details-bin`: a serialized `google.rpc.Status` whose `details` are `Any`s.
/// Each detail is decoded on its own, so one damaged detail leaves the others readable.
package enum GRPCStatusDetails {
    /// What a `google.rpc.Status` held.
    package struct Decoded: Sendable, Hashable {
        package var code: Int?
        package var message: String?
        package var details: [GRPCErrorDetail] = []
        /// What could not be decoded, in words.
        package var problem: String?
    }

    /// The status the bytes hold; what is damaged is named in `problem`, never thrown.
    package static func decode(_ bytes: [UInt8]) -> Decoded {
        var decoded = Decoded()
        var problems: [String] = []
        var rawDetails: [[UInt8]] = []
        if let fields = ProtobufFields(decoding: bytes) {
            for (number, value) in fields.fields {
                switch (number, value) {
                case (1, .number(let code)): decoded.code = Int(Int32(truncatingIfNeeded: code))
                case (2, .bytes(let text)): decoded.message = String(decoding: text, as: UTF8.self)
                case (3, .bytes(let detail)): rawDetails.append(detail)
                default: continue
                }
            }
        } else {
            problems.append("grpc-status-details-bin is not a google.rpc.Status: its bytes are not protobuf")
        }
        for (index, raw) in rawDetails.enumerated() {
            do {
                decoded.details.append(try decodeDetail(raw))
            } catch {
                let any = try? Google_Protobuf_Any(serializedBytes: raw)
                if let any {
                    decoded.details.append(.other(typeURL: any.typeURL, bytes: Array(any.value)))
                    problems.append("detail \(index + 1) (\(any.typeURL)) could not be decoded: \(error)")
                } else {
                    problems.append("detail \(index + 1) is not a google.protobuf.Any")
                }
            }
        }
        decoded.problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        return decoded
    }

    /// One `Any` decoded to its type (a status holding only it, read by GRPCProtobuf).
    private static func decodeDetail(_ raw: [UInt8]) throws -> GRPCErrorDetail {
        let status = try GoogleRPCStatus(serializedBytes: ProtobufFields([(3, .bytes(raw))]).encoded)
        guard let first = status.details.first else { throw GRPCWireError(.internalError, "an empty detail") }
        return try GRPCErrorDetail(first)
    }

    /// A `google.rpc.Status` with these details, serialized for `grpc-status-details-bin`.
    package static func encode(code: GRPCStatusCode, message: String, details: [GRPCErrorDetail]) throws -> [UInt8] {
        let code = RPCError.Code(code.core) ?? .unknown
        return try GoogleRPCStatus(code: code, message: message, details: details.map(\.packed)).serializedBytes()
    }
}
