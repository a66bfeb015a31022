import FoundationEssentials
import SwiftProtobuf
import SystemSupport
import TextSupport

/// Protosets: a serialized `google.protobuf.FileDescriptorSet`, as
/// `protoc --include_imports --descriptor_set_out=FILE` writes. A damaged one, or one that lacks
/// files its files import, is a clear error.
package enum GRPCProtoset {
    /// The largest protoset read (descriptors of hundreds of services are a few MiB).
    package static let sizeLimit = 64 << 20

    /// The set in the file at `path`.
    package static func read(atPath path: String) throws(GRPCDescriptorError) -> Google_Protobuf_FileDescriptorSet {
        switch FileStatus(path: path) {
        case .missing:
            throw GRPCDescriptorError(.notAProtoset, "\(path) does not exist or cannot be read.")
        case .directory, .other:
            throw GRPCDescriptorError(.notAProtoset, "\(path) is not a file.")
        case .file(let size) where size > sizeLimit:
            throw GRPCDescriptorError(.notAProtoset, "\(path) is larger than the \(sizeLimit >> 20) MiB a protoset may be.")
        case .file:
            break
        }
        guard let data = FileContents.read(atPath: path, atMost: sizeLimit) else {
            throw GRPCDescriptorError(.notAProtoset, "\(path) could not be read.")
        }
        return try decode(Array(data), source: path)
    }

    /// The set these bytes hold; `source` names them in errors.
    package static func decode(_ bytes: [UInt8], source: String) throws(GRPCDescriptorError) -> Google_Protobuf_FileDescriptorSet {
        let howToMake = "make one with protoc --include_imports --descriptor_set_out=FILE"
        guard !bytes.isEmpty else { throw GRPCDescriptorError(.notAProtoset, "\(source) is empty: a protoset holds a FileDescriptorSet (\(howToMake)).") }
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try Google_Protobuf_FileDescriptorSet(serializedBytes: bytes)
        } catch {
            try refuseSingleFile(bytes, source: source)
            throw GRPCDescriptorError(.notAProtoset, "\(source) is not a protoset, a serialized FileDescriptorSet (\(reason(error))); \(howToMake).")
        }
        // Bytes that happen to parse as protobuf still hold fields a FileDescriptorSet does not have.
        let stray = !set.unknownFields.data.isEmpty || set.file.contains { !$0.unknownFields.data.isEmpty || $0.name.isEmpty }
        guard !stray, !set.file.isEmpty else {
            try refuseSingleFile(bytes, source: source)
            throw GRPCDescriptorError(.notAProtoset, "\(source) is not a protoset: its bytes are not a FileDescriptorSet's files (\(howToMake)).")
        }
        try checkComplete(set, source: source)
        return set
    }

    /// One FileDescriptorProto alone (what `protoc --descriptor_set_out` never writes, but other
    /// tools do) is named as such.
    private static func refuseSingleFile(_ bytes: [UInt8], source: String) throws(GRPCDescriptorError) {
        guard let file = try? Google_Protobuf_FileDescriptorProto(serializedBytes: bytes), file.name.hasSuffix(".proto"), file.unknownFields.data.isEmpty
        else { return }
        throw GRPCDescriptorError(
            .notAProtoset,
            "\(source) holds one file's descriptor (\(TerminalText.cleaned(file.name))), not a FileDescriptorSet; make the protoset with protoc --include_imports --descriptor_set_out=FILE.")
    }

    /// Every file named once, and every import in the set.
    package static func checkComplete(_ set: Google_Protobuf_FileDescriptorSet, source: String) throws(GRPCDescriptorError) {
        var names: Set<String> = []
        for file in set.file where !names.insert(file.name).inserted {
            throw GRPCDescriptorError(.notAProtoset, "\(source) holds \(file.name) twice.")
        }
        for file in set.file {
            for dependency in file.dependency where !names.contains(dependency) {
                throw GRPCDescriptorError(
                    .incomplete,
                    "\(source): \(file.name) imports \(dependency), which is not in it; make the protoset with protoc --include_imports.")
            }
        }
    }

    /// SwiftProtobuf's decoding error in words.
    static func reason(_ error: any Error) -> String {
        switch error as? BinaryDecodingError {
        case .truncated?: "it ends in the middle of a field"
        case .malformedProtobuf?: "its bytes are not protobuf"
        case .invalidUTF8?: "a text field is not UTF-8"
        case .messageDepthLimit?: "it nests deeper than protobuf's limit"
        case .trailingGarbage?: "bytes follow its end"
        default: "\(error)"
        }
    }
}
