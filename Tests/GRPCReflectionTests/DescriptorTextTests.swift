import SwiftProtobuf
import Testing

@testable import GRPCReflection
import TestSupport
import TestTraits

/// grpcurl's `list` and `describe` over routeguide.proto's descriptors (compiled by grpc_tools).
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio-tools"))
struct DescriptorTextTests {
    static func index() async throws -> GRPCDescriptorIndex {
        GRPCDescriptorIndex(try GRPCProtoset.decode(try await PythonGRPCServer.protoset(), source: "routeguide.protoset"))
    }

    @Test func listNamesTheServicesThenAServicesMethods() async throws {
        let index = try await Self.index()
        #expect(try GRPCDescriptorText.list(index) == ["routeguide.Probe", "routeguide.RouteGuide"])
        #expect(try GRPCDescriptorText.list(index, service: "routeguide.RouteGuide") == [
            "routeguide.RouteGuide.GetFeature", "routeguide.RouteGuide.ListFeatures", "routeguide.RouteGuide.RecordRoute",
            "routeguide.RouteGuide.RouteChat",
        ])
        #expect(throws: GRPCDescriptorError(.symbolNotFound, "There is no service 'routeguide.Nope' in the descriptors (services: routeguide.Probe, routeguide.RouteGuide).")) {
            _ = try GRPCDescriptorText.list(index, service: "routeguide.Nope")
        }
    }

    @Test func describeAServiceShowsEachKindOfMethod() async throws {
        #expect(try GRPCDescriptorText.describe(try await Self.index(), symbol: "routeguide.RouteGuide") == """
            routeguide.RouteGuide is a service:
            service RouteGuide {
              rpc GetFeature ( .routeguide.Point ) returns ( .routeguide.Feature );
              rpc ListFeatures ( .routeguide.Rectangle ) returns ( stream .routeguide.Feature );
              rpc RecordRoute ( stream .routeguide.Point ) returns ( .routeguide.RouteSummary );
              rpc RouteChat ( stream .routeguide.RouteNote ) returns ( stream .routeguide.RouteNote );
            }

            """)
    }

    @Test func describeAMessageWithAMapAndAWellKnownType() async throws {
        #expect(try GRPCDescriptorText.describe(try await Self.index(), symbol: ".routeguide.EchoReply") == """
            routeguide.EchoReply is a message:
            message EchoReply {
              string text = 1;
              map<string, string> metadata = 2;
              double deadline_remaining = 3;
              bytes padding = 4;
              int32 index = 5;
              .google.protobuf.Timestamp at = 6;
            }

            """)
    }

    @Test func describeAMethodAFieldAndAWellKnownType() async throws {
        let index = try await Self.index()
        #expect(try GRPCDescriptorText.describe(index, symbol: "routeguide.RouteGuide.ListFeatures") == """
            routeguide.RouteGuide.ListFeatures is a method:
            rpc ListFeatures ( .routeguide.Rectangle ) returns ( stream .routeguide.Feature );

            """)
        #expect(try GRPCDescriptorText.describe(index, symbol: "routeguide.Rectangle.lo") == "routeguide.Rectangle.lo is a field:\n.routeguide.Point lo = 1;\n")
        #expect(try GRPCDescriptorText.describe(index, symbol: "google.protobuf.Timestamp").hasPrefix("google.protobuf.Timestamp is a message:\nmessage Timestamp {\n  int64 seconds = 1;\n  int32 nanos = 2;\n}"))
        #expect(throws: GRPCDescriptorError(.symbolNotFound, "There is no symbol 'routeguide.Nope' in the descriptors.")) {
            _ = try GRPCDescriptorText.describe(index, symbol: "routeguide.Nope")
        }
    }

    @Test func describeWithoutASymbolDescribesEveryService() async throws {
        let text = try GRPCDescriptorText.describe(try await Self.index())
        #expect(text.hasPrefix("routeguide.Probe is a service:\n"))
        #expect(text.contains("\nrouteguide.RouteGuide is a service:\n"))
    }

    @Test func oneofsOptionalsEnumsAndNestedTypesAreWrittenAsProtoSource() throws {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "shapes.proto"
        file.package = "shapes"
        file.syntax = "proto3"
        var shape = Google_Protobuf_DescriptorProto()
        shape.name = "Shape"
        func field(_ name: String, _ number: Int32, _ type: Google_Protobuf_FieldDescriptorProto.TypeEnum, typeName: String = "", oneof: Int32? = nil)
            -> Google_Protobuf_FieldDescriptorProto
        {
            var field = Google_Protobuf_FieldDescriptorProto()
            field.name = name
            field.number = number
            field.label = .optional
            field.type = type
            if !typeName.isEmpty { field.typeName = typeName }
            if let oneof { field.oneofIndex = oneof }
            return field
        }
        var radius = field("radius", 1, .double, oneof: 0)
        radius.options.deprecated = true
        shape.field = [radius, field("side", 2, .double, oneof: 0), field("kind", 3, .enum, typeName: ".shapes.Shape.Kind")]
        var label = field("label", 4, .string, oneof: 1)
        label.proto3Optional = true
        var tags = field("tags", 5, .string)
        tags.label = .repeated
        tags.jsonName = "labels"
        shape.field += [label, tags]
        var kind = Google_Protobuf_EnumDescriptorProto()
        kind.name = "Kind"
        kind.value = [("KIND_UNSPECIFIED", Int32(0)), ("ROUND", 1)].map { name, number in
            var value = Google_Protobuf_EnumValueDescriptorProto()
            value.name = name
            value.number = number
            return value
        }
        shape.enumType = [kind]
        var size = Google_Protobuf_OneofDescriptorProto()
        size.name = "size"
        var synthetic = Google_Protobuf_OneofDescriptorProto()
        synthetic.name = "_label"
        shape.oneofDecl = [size, synthetic]
        var reserved = Google_Protobuf_DescriptorProto.ReservedRange()
        reserved.start = 9
        reserved.end = 12
        shape.reservedRange = [reserved]
        shape.reservedName = ["old"]
        file.messageType = [shape]
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = [file]
        let index = GRPCDescriptorIndex(set)
        #expect(try GRPCDescriptorText.describe(index, symbol: "shapes.Shape") == """
            shapes.Shape is a message:
            message Shape {
              oneof size {
                double radius = 1 [deprecated = true];
                double side = 2;
              }
              .shapes.Shape.Kind kind = 3;
              optional string label = 4;
              repeated string tags = 5 [json_name = "labels"];
              enum Kind {
                KIND_UNSPECIFIED = 0;
                ROUND = 1;
              }
              reserved 9 to 11;
              reserved "old";
            }

            """)
        #expect(try GRPCDescriptorText.describe(index, symbol: "shapes.Shape.Kind.ROUND") == "shapes.Shape.Kind.ROUND is an enum value:\nROUND = 1;\n")
    }
}
