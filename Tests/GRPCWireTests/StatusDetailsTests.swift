import FoundationEssentials
import SwiftProtobuf
import Testing

@testable import GRPCWire
import TestTraits

/// `grpc-status-details-bin`: a google.rpc.Status whose details are typed, each on its own, so
/// a damaged one leaves the others readable; and the lines a person reads.
@Suite(.offPool) struct StatusDetailsTests {
    static let every: [GRPCErrorDetail] = [
        .errorInfo(reason: "API_KEY_INVALID", domain: "example.com", metadata: ["service": "maps", "a": "1"]),
        .retryInfo(delay: .milliseconds(2500)),
        .debugInfo(stack: ["a.swift:1", "b.swift:2"], detail: "boom"),
        .quotaFailure([.init(subject: "project:1", description: "daily limit")]),
        .preconditionFailure([.init(type: "TOS", subject: "example.com", description: "terms not accepted")]),
        .badRequest([.init(field: "name", description: "must not be empty", reason: "EMPTY"), .init(field: "age", description: "must be positive")]),
        .requestInfo(requestID: "r-1", servingData: "node 3"),
        .resourceInfo(type: "book", name: "shelves/1/books/2", owner: "me", description: "no such book"),
        .help([.init(url: "https://example.com/help", description: "the docs")]),
        .localizedMessage(locale: "fr-FR", message: "échec"),
        .other(typeURL: "type.googleapis.com/acme.Custom", bytes: [8, 1]),
    ]

    @Test func everyStandardDetailComesBackTyped() throws {
        let bytes = try GRPCStatusDetails.encode(code: .invalidArgument, message: "bad", details: Self.every)
        let decoded = GRPCStatusDetails.decode(bytes)
        #expect(decoded.code == 3)
        #expect(decoded.message == "bad")
        #expect(decoded.details == Self.every)
        #expect(decoded.problem == nil)
    }

    @Test func eachDetailReadsAsLines() {
        let lines = Self.every.flatMap(\.lines)
        #expect(lines == [
            "ErrorInfo: API_KEY_INVALID (domain example.com); a=1, service=maps",
            "RetryInfo: retry after 2.5 s",
            "DebugInfo: boom", "  at a.swift:1", "  at b.swift:2",
            "QuotaFailure: project:1: daily limit",
            "PreconditionFailure: TOS example.com: terms not accepted",
            "name: must not be empty (EMPTY)", "age: must be positive",
            "RequestInfo: request r-1; node 3",
            "ResourceInfo: book shelves/1/books/2 (owner me): no such book",
            "Help: the docs <https://example.com/help>",
            "LocalizedMessage (fr-FR): échec",
            "type.googleapis.com/acme.Custom (2 bytes, not a type apiexplorer decodes)",
        ])
    }

    @Test func aServersControlSequencesNeverReachTheTerminal() {
        let status = GRPCStatus(code: .internalError, message: "\u{1B}]52;c;ZXZpbA==\u{07}", details: [.debugInfo(stack: [], detail: "\u{1B}[2J")])
        #expect(status.lines.allSatisfy { !$0.contains("\u{1B}") })
        #expect(!status.description.contains("\u{1B}"))
    }

    @Test func aDamagedDetailLeavesTheOthersReadable() throws {
        // A status whose second detail claims to be an ErrorInfo but holds bytes that are not one.
        let good = try GRPCStatusDetails.encode(code: .notFound, message: "gone", details: [.retryInfo(delay: .seconds(1))])
        var broken = Google_Protobuf_Any()
        broken.typeURL = "type.googleapis.com/google.rpc.ErrorInfo"
        broken.value = Data([0xFF, 0xFF, 0xFF])
        let brokenBytes: [UInt8] = try broken.serializedBytes()
        var bytes = good + [0x1A, UInt8(brokenBytes.count)] + brokenBytes
        bytes += try GRPCStatusDetails.encode(code: .notFound, message: "", details: [.localizedMessage(locale: "en", message: "hi")])
        let decoded = GRPCStatusDetails.decode(bytes)
        #expect(decoded.details.count == 3)
        #expect(decoded.details.first == .retryInfo(delay: .seconds(1)))
        #expect(decoded.details.last == .localizedMessage(locale: "en", message: "hi"))
        #expect(decoded.details[1] == .other(typeURL: "type.googleapis.com/google.rpc.ErrorInfo", bytes: [0xFF, 0xFF, 0xFF]))
        #expect(decoded.problem?.hasPrefix("detail 2 (type.googleapis.com/google.rpc.ErrorInfo) could not be decoded") == true)
    }

    @Test func bytesThatAreNotAStatusAreNamedNotThrown() {
        let decoded = GRPCStatusDetails.decode([0x0A, 0x50, 1, 2])
        #expect(decoded.details.isEmpty)
        #expect(decoded.problem == "grpc-status-details-bin is not a google.rpc.Status: its bytes are not protobuf")
    }

    @Test func theTrailersMessageWinsAndTheDetailsFillIn() throws {
        let bytes = try GRPCStatusDetails.encode(code: .notFound, message: "from details", details: [.help([])])
        #expect(GRPCStatus(code: .notFound, message: "from trailers", detailsBytes: bytes).message == "from trailers")
        #expect(GRPCStatus(code: .notFound, message: "", detailsBytes: bytes).message == "from details")
    }
}
