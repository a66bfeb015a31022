import FoundationEssentials
import GRPCCore
import NIOHPACK
import TextSupport

/// Metadata as gRPC carries it in HTTP/2 headers and trailers, in order: text values, and binary
/// ones under names ending in `-bin` (base64 on the wire).
package struct GRPCMetadata: Sendable, Hashable, Sequence {
    /// One entry's value.
    package enum Value: Sendable, Hashable, CustomStringConvertible {
        case text(String)
        case binary([UInt8])

        /// The value as the wire writes it: text as it is, binary as base64 without padding.
        package var wireText: String {
            switch self {
            case .text(let text): text
            case .binary(let bytes): GRPCMetadata.base64(bytes)
            }
        }

        package var description: String { wireText }
    }

    /// One entry: a lower-case name and its value.
    package struct Entry: Sendable, Hashable {
        package var name: String
        package var value: Value

        package init(name: String, value: Value) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    /// The entries, in order.
    package private(set) var entries: [Entry]

    package init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// Text entries, in order; names ending in `-bin` take base64 (padded or not) as the wire does.
    package init(text pairs: [(name: String, value: String)]) throws(GRPCMetadataError) {
        entries = []
        for (name, value) in pairs { try appendWire(name: name, value: value) }
    }

    /// Appends a text value.
    package mutating func append(_ name: String, _ value: String) {
        entries.append(Entry(name: name, value: .text(value)))
    }

    /// Appends a binary value (the name should end in `-bin`).
    package mutating func append(_ name: String, binary value: [UInt8]) {
        entries.append(Entry(name: name, value: .binary(value)))
    }

    /// Appends an entry as it came on the wire: a `-bin` name's value is base64 and decoded.
    package mutating func appendWire(name: String, value: String) throws(GRPCMetadataError) {
        let lowered = name.lowercased()
        try Self.check(name: lowered)
        if lowered.hasSuffix("-bin") {
            guard let bytes = Self.decodeBase64(value) else { throw GRPCMetadataError(name: lowered, reason: "its value is not base64") }
            entries.append(Entry(name: lowered, value: .binary(bytes)))
        } else {
            entries.append(Entry(name: lowered, value: .text(value)))
        }
    }

    /// The first value of `name`, as text (base64 for a binary value).
    package subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return entries.first { $0.name == lowered }?.value.wireText
    }

    /// Every binary value of `name`.
    package func binaryValues(_ name: String) -> [[UInt8]] {
        let lowered = name.lowercased()
        return entries.compactMap { entry in
            guard entry.name == lowered, case .binary(let bytes) = entry.value else { return nil }
            return bytes
        }
    }

    /// Without the entries named `names`.
    package func removing(_ names: Set<String>) -> GRPCMetadata {
        GRPCMetadata(entries.filter { !names.contains($0.name) })
    }

    package var isEmpty: Bool { entries.isEmpty }

    package func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    // MARK: GRPCCore and HPACK

    /// The same entries as GRPCCore's metadata.
    package var core: Metadata {
        var metadata = Metadata()
        for entry in entries {
            switch entry.value {
            case .text(let text): metadata.addString(text, forKey: entry.name)
            case .binary(let bytes): metadata.addBinary(bytes, forKey: entry.name)
            }
        }
        return metadata
    }

    /// GRPCCore's metadata; keys are lower-cased as HTTP/2 requires.
    package init(_ metadata: Metadata) {
        entries = metadata.map { element in
            switch element.value {
            case .string(let text): Entry(name: element.key, value: .text(text))
            case .binary(let bytes): Entry(name: element.key, value: .binary(bytes))
            }
        }
    }

    /// The entries as HTTP/2 header fields (binary values in base64).
    package func appended(to headers: inout HPACKHeaders) {
        // A pseudo-header among them would be a second `:status` or `:path`: a protocol error.
        for entry in entries where !entry.name.hasPrefix(":") {
            headers.add(name: entry.name, value: entry.value.wireText)
        }
    }

    /// The header fields of a HEADERS frame as metadata, without pseudo-headers and `skipping`.
    /// A `-bin` field whose value is not base64 is an error: it is a malformed response.
    package init(headers: HPACKHeaders, skipping: Set<String> = []) throws(GRPCMetadataError) {
        entries = []
        for (name, value, _) in headers where !name.hasPrefix(":") && !skipping.contains(name) {
            try appendWire(name: name, value: value)
        }
    }

    // MARK: Rules

    /// Names the transport owns: a caller's entry of one of these is refused, not sent twice.
    package static let reservedRequestNames: Set<String> = [
        "content-type", "te", "grpc-encoding", "grpc-accept-encoding", "grpc-status", "grpc-message", "grpc-status-details-bin",
        // Connection-specific fields are a protocol error in HTTP/2 (RFC 9113 §8.2.2).
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host",
    ]

    /// A header name HTTP/2 accepts: lower-case token characters, not empty, not a pseudo-header.
    static func check(name: String) throws(GRPCMetadataError) {
        guard !name.isEmpty else { throw GRPCMetadataError(name: name, reason: "the name is empty") }
        guard !name.hasPrefix(":") else { throw GRPCMetadataError(name: name, reason: "a name starting with ':' is an HTTP/2 pseudo-header") }
        let allowed: (UInt8) -> Bool = { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
            default: false
            }
        }
        guard name.utf8.allSatisfy(allowed) else {
            throw GRPCMetadataError(name: name, reason: "a metadata name has only a–z, 0–9, '-', '_' and '.'")
        }
    }

    /// Checks the entries a caller wants to send: valid names, none the transport owns, text values
    /// without control characters (which would split or corrupt a header).
    package func validatedForRequest() throws(GRPCMetadataError) -> GRPCMetadata {
        for entry in entries {
            try Self.check(name: entry.name)
            if Self.reservedRequestNames.contains(entry.name) {
                throw GRPCMetadataError(name: entry.name, reason: "the gRPC transport sets this header itself")
            }
            if case .text(let text) = entry.value {
                if entry.name.hasSuffix("-bin") {
                    throw GRPCMetadataError(name: entry.name, reason: "a name ending in -bin takes a binary value")
                }
                if text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) {
                    throw GRPCMetadataError(name: entry.name, reason: "the value holds a control character")
                }
            }
        }
        return self
    }

    // MARK: Base64

    /// Standard base64 without padding, as gRPC sends binary metadata.
    static func base64(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Standard base64, padded or not; nil when it is not base64.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var padded = text.trimmedSpaces
        if padded.utf8.count % 4 == 1 { return nil }
        while padded.utf8.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map { Array($0) }
    }
}

/// A metadata entry that cannot be sent or was not valid on the wire.
package struct GRPCMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var reason: String

    package var description: String { "metadata '\(name)': \(reason)" }
}
