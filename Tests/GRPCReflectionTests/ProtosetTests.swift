import Foundation
import SwiftProtobuf
import Testing

@testable import GRPCReflection
import TestSupport
import TestTraits

/// Protosets read from files (damaged ones a clear error), and .proto files compiled by protoc.
@Suite(.offPool) struct ProtosetTests {
    static func write(_ bytes: [UInt8], in directory: TemporaryDirectory, name: String = "x.protoset") throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func set(_ names: [(String, [String])]) -> Google_Protobuf_FileDescriptorSet {
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = names.map { name, dependencies in
            var file = Google_Protobuf_FileDescriptorProto()
            file.name = name
            file.dependency = dependencies
            return file
        }
        return set
    }

    @Test func aProtosetWithItsImportsIsRead() throws {
        let directory = try TemporaryDirectory()
        let bytes: [UInt8] = try Self.set([("b.proto", []), ("a.proto", ["b.proto"])]).serializedBytes()
        let set = try GRPCProtoset.read(atPath: try Self.write(bytes, in: directory))
        #expect(set.file.map(\.name) == ["b.proto", "a.proto"])
    }

    @Test func damagedProtosetsSayWhatIsWrong() throws {
        let directory = try TemporaryDirectory()
        let good: [UInt8] = try Self.set([("b.proto", []), ("a.proto", ["b.proto"])]).serializedBytes()
        let make = "make one with protoc --include_imports --descriptor_set_out=FILE"
        let cases: [(String, [UInt8], GRPCDescriptorError)] = [
            ("empty", [], GRPCDescriptorError(.notAProtoset, "PATH is empty: a protoset holds a FileDescriptorSet (\(make)).")),
            ("cut", Array(good.dropLast(3)), GRPCDescriptorError(.notAProtoset, "PATH is not a protoset, a serialized FileDescriptorSet (it ends in the middle of a field); \(make).")),
            ("text", Array("syntax = \"proto3\";\nmessage A {}\n".utf8),
             GRPCDescriptorError(.notAProtoset, "PATH is not a protoset, a serialized FileDescriptorSet (its bytes are not protobuf); \(make).")),
            ("one file, not a set", try Self.set([("shop/shop.proto", [])]).file[0].serializedBytes(),
             GRPCDescriptorError(
                .notAProtoset, "PATH holds one file's descriptor (shop/shop.proto), not a FileDescriptorSet; make the protoset with protoc --include_imports --descriptor_set_out=FILE.")),
            ("a set of nameless files", [0x0A, 0x02, 0x10, 0x01],
             GRPCDescriptorError(.notAProtoset, "PATH is not a protoset: its bytes are not a FileDescriptorSet's files (\(make)).")),
            ("no imports", try Self.set([("a.proto", ["b.proto"])]).serializedBytes(),
             GRPCDescriptorError(.incomplete, "PATH: a.proto imports b.proto, which is not in it; make the protoset with protoc --include_imports.")),
            ("twice", try Self.set([("a.proto", []), ("a.proto", [])]).serializedBytes(), GRPCDescriptorError(.notAProtoset, "PATH holds a.proto twice.")),
        ]
        for (name, bytes, expected) in cases {
            let path = try Self.write(bytes, in: directory, name: name)
            var error = expected
            error.message = error.message.replacing("PATH", with: path)
            #expect(throws: error, "\(name)") { _ = try GRPCProtoset.read(atPath: path) }
        }
    }

    @Test func aPathThatIsNotAFile() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: GRPCDescriptorError(.notAProtoset, "\(directory.url.path) is not a file.")) { _ = try GRPCProtoset.read(atPath: directory.url.path) }
        #expect(throws: GRPCDescriptorError(.notAProtoset, "/nonexistent/x.protoset does not exist or cannot be read.")) {
            _ = try GRPCProtoset.read(atPath: "/nonexistent/x.protoset")
        }
    }

    @Test func randomBytesNeverCrashTheReader() {
        var generator = SeededGenerator(state: 51)
        for length in 0..<400 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? GRPCProtoset.decode(bytes, source: "random")
        }
    }

    @Test func withoutProtocTheMessageNamesThePackage() async throws {
        await #expect(throws: GRPCDescriptorError(.protocMissing, "protoc is not installed, and .proto files need it: \(GRPCProtoCompiler.installHint).")) {
            _ = try await GRPCProtoCompiler.compile(["a.proto"], searchPath: "")
        }
        #expect(GRPCProtoCompiler.installHint.contains("protobuf-compiler"))
    }

    @Test(.enabled(if: GRPCProtoCompiler.locate() != nil, "protoc (Debian's protobuf-compiler)"))
    func protocCompilesAProtoWithItsImports() async throws {
        let set = try await GRPCProtoCompiler.compile([PythonGRPCServer.protoPath])
        #expect(set.file.map(\.name) == ["google/protobuf/timestamp.proto", "routeguide.proto"])
        let index = GRPCDescriptorIndex(set)
        #expect(try GRPCDescriptorText.list(index) == ["routeguide.Probe", "routeguide.RouteGuide"])
    }

    @Test(.enabled(if: GRPCProtoCompiler.locate() != nil, "protoc (Debian's protobuf-compiler)"))
    func protocsErrorsNameFileLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("broken.proto").path
        try Data("syntax = \"proto3\";\nmessage A { int32 x = 1 }\n".utf8).write(to: URL(fileURLWithPath: path))
        await #expect {
            _ = try await GRPCProtoCompiler.compile([path])
        } throws: { error in
            let error = error as? GRPCDescriptorError
            return error?.kind == .protocFailed && error?.message == "protoc could not compile \(path):\nbroken.proto:2:25: Expected \";\"."
        }
        await #expect(throws: GRPCDescriptorError(.protocFailed, "/nonexistent/a.proto does not exist.")) {
            _ = try await GRPCProtoCompiler.compile(["/nonexistent/a.proto"])
        }
    }
}
