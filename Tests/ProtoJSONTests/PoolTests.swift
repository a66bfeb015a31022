import Foundation
import ProtoJSON
import SwiftProtobuf
import Testing
import TestTraits

@Suite(.offPool) struct PoolTests {
    private func files() throws -> [Google_Protobuf_FileDescriptorProto] {
        try Google_Protobuf_FileDescriptorSet(serializedBytes: Reference.require().protoset).file
    }

    private func refusal(_ files: [Google_Protobuf_FileDescriptorProto]) -> String? {
        do {
            _ = try DescriptorPool(files: files)
            return nil
        } catch {
            return error.reason
        }
    }

    /// The files with one changed by `change`.
    private func changing(_ name: String, _ change: (inout Google_Protobuf_FileDescriptorProto) -> Void) throws -> [Google_Protobuf_FileDescriptorProto] {
        var files = try files()
        let index = try #require(files.firstIndex { $0.name == name })
        change(&files[index])
        return files
    }

    @Test func resolvesNestedTypesImportsAcrossPackagesMapsAndOneofs() throws {
        let pool = try Reference.require().pool
        let scalars = try pool.messageType(named: "conformance.Scalars")
        #expect(pool.messageID(named: ".conformance.Scalars") == scalars)
        #expect(pool.messageID(named: "conformance.Scalars.Inner.Deeper") != nil)
        #expect(pool.enumID(named: "conformance.shared.Tag.Kind") != nil)
        #expect(pool.messageID(named: "conformance.Nope") == nil)
        #expect(throws: DescriptorError("no message type 'conformance.Nope' in the descriptor set")) { try pool.messageType(named: "conformance.Nope") }

        let fields = pool[scalars].fields
        let imported = try #require(fields.first { $0.name == "f_imported" })
        #expect(imported.type == .message(try pool.messageType(named: "conformance.shared.Tag")))
        let inner = try #require(fields.first { $0.name == "f_inner" })
        #expect(inner.type == .message(try pool.messageType(named: "conformance.Scalars.Inner")))
        let renamed = try #require(fields.first { $0.name == "custom" })
        #expect(renamed.jsonName == "renamed")
        #expect(pool[scalars].fieldIndex(named: "renamed") == pool[scalars].fieldIndex(named: "custom"))
        #expect(pool[scalars].oneofs.map(\.name) == ["choice"])
        #expect(pool[scalars].oneofs[0].fields.map { fields[$0].name } == ["c_string", "c_int64", "c_point", "c_enum", "c_bytes"])
        // proto3 `optional`: presence, but no oneof (its synthetic oneof is not one to the mapping).
        let optional = try #require(fields.first { $0.name == "o_int32" })
        #expect(optional.hasPresence && optional.oneof == nil)
        #expect(fields.first { $0.name == "f_int32" }?.hasPresence == false)
        #expect(fields.first { $0.name == "f_message" }?.hasPresence == true)
        #expect(fields.first { $0.name == "r_int32" }?.isPacked == true)
        #expect(fields.first { $0.name == "r_unpacked" }?.isPacked == false)

        let maps = try pool.messageType(named: "conformance.Maps")
        let int32Key = try #require(pool[maps].fields.first { $0.name == "int32_key" })
        let entry = try #require(int32Key.mapEntry)
        #expect(pool[entry].isMapEntry)
        #expect(pool[entry].fields.map(\.type) == [.int32, .string])

        let wellKnown = try pool.messageType(named: "conformance.WellKnown")
        let kinds = pool[wellKnown].fields.prefix(18).map { field -> WellKnownType? in
            if case .message(let id) = field.type { pool[id].wellKnown } else { nil }
        }
        #expect(kinds == [.timestamp, .duration, .any, .struct, .value, .listValue, nil, .fieldMask, .empty] + Array(repeating: .wrapper, count: 9))
    }

    @Test func proto2AndEditionsPresenceEncodingAndEnums() throws {
        let pool = try Reference.require().pool
        let legacy = pool[try pool.messageType(named: "conformance.Legacy")]
        func field(_ descriptor: MessageDescriptor, _ name: String) throws -> FieldDescriptor { try #require(descriptor.fields.first { $0.name == name }) }
        #expect(try field(legacy, "id").isRequired)
        #expect(try field(legacy, "name").hasPresence && field(legacy, "name").defaultText == "unnamed")
        #expect(try field(legacy, "packed").isPacked && !field(legacy, "unpacked").isPacked)
        #expect(try field(legacy, "item").isDelimited)
        #expect(try !field(legacy, "name").validatesUTF8)
        #expect(pool[try #require(pool.enumID(named: "conformance.Level"))].isClosed)
        #expect(!pool[try #require(pool.enumID(named: "conformance.Color"))].isClosed)

        let editions = pool[try pool.messageType(named: "conformance.Editions")]
        #expect(try field(editions, "explicit_int").hasPresence)
        #expect(try !field(editions, "implicit_int").hasPresence)
        #expect(try field(editions, "packed").isPacked && !field(editions, "expanded").isPacked)
        #expect(try field(editions, "child").isDelimited)
        #expect(pool[try #require(pool.enumID(named: "conformance.Closed"))].isClosed)
        #expect(pool.files.first { $0.name == "conformance/editions.proto" }?.syntax == "editions")
    }

    @Test func servicesAndMethodsByEveryWayOfNamingThem() throws {
        let pool = try Reference.require().pool
        let service = try #require(pool.service(named: "routeguide.RouteGuide"))
        #expect(service.methods.map(\.name) == ["GetFeature", "ListFeatures", "RecordRoute", "RouteChat"])
        #expect(service.methods.map(\.clientStreaming) == [false, false, true, true])
        #expect(service.methods.map(\.serverStreaming) == [false, true, false, true])
        let chat = try #require(pool.method(named: "routeguide.RouteGuide/RouteChat"))
        #expect(chat.path == "/routeguide.RouteGuide/RouteChat")
        #expect(chat.input == (try pool.messageType(named: "routeguide.RouteNote")))
        #expect(pool.method(named: "/routeguide.RouteGuide/GetFeature")?.output == (try pool.messageType(named: "routeguide.Feature")))
        #expect(pool.method(named: "routeguide.RouteGuide.ListFeatures")?.fullName == "routeguide.RouteGuide.ListFeatures")
        #expect(pool.method(named: "routeguide.RouteGuide/Nope") == nil)
        #expect(pool.method(named: "Nope") == nil)
    }

    @Test func aDamagedSetIsRefusedSayingSo() throws {
        #expect(throws: DescriptorError.self) { try DescriptorPool(protoset: [0x0A, 0x05, 0x01]) }
        do {
            _ = try DescriptorPool(protoset: Data([0xFF, 0xFF, 0xFF]))
            Issue.record("garbage made a pool")
        } catch {
            #expect(error.reason.hasPrefix("the descriptor set is damaged"))
        }
        // An empty set is a set without types.
        #expect(try DescriptorPool(protoset: Data()).messages.isEmpty)
    }

    @Test func aMissingImportIsNamed() throws {
        let files = try files().filter { $0.name != "conformance/shared.proto" }
        #expect(
            refusal(files)
                == "file 'conformance/scalars.proto' imports 'conformance/shared.proto', which the descriptor set does not hold (protoc adds imports with --include_imports)"
        )
    }

    @Test func inconsistentSetsAreRefusedNamingThePlace() throws {
        #expect(
            refusal(
                try changing("conformance/scalars.proto") {
                    $0.messageType[0].field[0].typeName = ".conformance.Missing"
                    $0.messageType[0].field[0].type = .message
                }) == "field 'f_double' of message 'conformance.Scalars' has the type '.conformance.Missing', which the descriptor set does not define (is a file missing?)")
        #expect(
            refusal(try changing("conformance/scalars.proto") { $0.messageType[0].field[1].number = 1 })
                == "message 'conformance.Scalars' has two fields numbered 1")
        #expect(
            refusal(try changing("conformance/scalars.proto") { $0.messageType[0].field[1].number = 0 })
                == "field 'f_float' of message 'conformance.Scalars' has the number 0, outside 1…536870911")
        #expect(
            refusal(try changing("conformance/scalars.proto") { $0.messageType.append($0.messageType[1]) })
                == "'conformance.Point' is declared twice (again in file 'conformance/scalars.proto')")
        #expect(
            refusal(try changing("conformance/scalars.proto") { $0.messageType[0].field[0].oneofIndex = 7 })
                == "field 'f_double' of message 'conformance.Scalars' names oneof 7, which the message does not declare")
        #expect(refusal(try changing("conformance/scalars.proto") { $0.enumType[0].value = [] }) == "enum 'conformance.Color' has no values")
        #expect(
            refusal(try changing("routeguide.proto") { $0.service[0].method[0].inputType = ".routeguide.Nope" })
                == "method 'routeguide.RouteGuide.GetFeature' has the input type '.routeguide.Nope', which is no message type of the descriptor set")
        #expect(
            refusal(try changing("conformance/scalars.proto") { $0.syntax = "proto4" })
                == "file 'conformance/scalars.proto' has syntax 'proto4', which is not proto2, proto3 or editions")
        #expect(
            refusal(try changing("google/protobuf/timestamp.proto") { $0.messageType[0].field[0].type = .string })
                == "'google.protobuf.Timestamp' is a well-known type, but this descriptor set declares it with other fields than google/protobuf's")
        #expect(
            refusal(try changing("conformance/maps.proto") { $0.messageType[0].nestedType[0].field[0].type = .double })
                == "map entry 'conformance.Maps.Int32KeyEntry' is not a key (field 1, an integer, bool or string) and a value (field 2)")
        var twice = try files()
        var other = twice[twice.count - 1]
        other.package = "elsewhere"
        twice.append(other)
        #expect(refusal(twice) == "the descriptor set holds two different files named '\(other.name)'")
        // The same file twice (as reflection may send it) is no conflict.
        #expect(refusal(try files() + files()) == nil)
    }

    @Test func relativeTypeNamesResolveFromTheInnermostScope() throws {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "relative.proto"
        file.package = "a.b"
        file.syntax = "proto3"
        var outer = Google_Protobuf_DescriptorProto()
        outer.name = "Outer"
        var inner = Google_Protobuf_DescriptorProto()
        inner.name = "Inner"
        outer.nestedType = [inner]
        var field = Google_Protobuf_FieldDescriptorProto()
        field.name = "inner"
        field.number = 1
        field.label = .optional
        field.typeName = "Inner"
        var sibling = Google_Protobuf_FieldDescriptorProto()
        sibling.name = "sibling"
        sibling.number = 2
        sibling.label = .optional
        sibling.typeName = "b.Sibling"
        outer.field = [field, sibling]
        var siblingMessage = Google_Protobuf_DescriptorProto()
        siblingMessage.name = "Sibling"
        file.messageType = [outer, siblingMessage]
        let pool = try DescriptorPool(files: [file])
        let fields = pool[try pool.messageType(named: "a.b.Outer")].fields
        #expect(fields[0].type == .message(try pool.messageType(named: "a.b.Outer.Inner")))
        #expect(fields[1].type == .message(try pool.messageType(named: "a.b.Sibling")))
        #expect(fields[0].jsonName == "inner")
    }
}
