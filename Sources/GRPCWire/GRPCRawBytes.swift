import GRPCCore

/// GRPCCore's serializer and deserializer for messages kept encoded: calls by descriptor encode
/// and decode their messages themselves.
package struct GRPCRawBytes: MessageSerializer, MessageDeserializer {
    package init() {}

    package func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }

    package func deserialize<Bytes: GRPCContiguousBytes>(_ bytes: Bytes) throws -> [UInt8] { bytes.withUnsafeBytes { Array($0) } }
}
