import Foundation
import JSONSupport
import ProtoJSON
import Testing
import TestTraits

@Suite(.offPool) struct CodecTests {
    private func error(_ type: String, _ json: String) throws -> String? {
        let pool = try Reference.require().pool
        let type = try pool.messageType(named: type)
        do {
            _ = try pool.encodeJSON(json, as: type)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aWrongFieldNameOrTypeIsAnErrorAtItsJSONPath() throws {
        #expect(try error("routeguide.Rectangle", #"{"lo": {"latitude": "x"}}"#) == #"$.lo.latitude: expected an integer (int32), got "x""#)
        #expect(try error("routeguide.Rectangle", #"{"lo": {"latitud": 1}}"#) == #"$.lo.latitud: routeguide.Point has no field "latitud" (its fields: latitude, longitude)"#)
        #expect(try error("routeguide.Feature", #"{"location": 5}"#) == "$.location: expected an object (routeguide.Point), got 5")
        #expect(try error("conformance.Scalars", #"{"rMessage": [{}, {"latitude": 1.5}]}"#) == "$.rMessage[1].latitude: 1.5 is not a whole number (int32)")
        #expect(try error("conformance.Maps", #"{"stringKey": {"a b": 5}}"#) == #"$.stringKey["a b"]: expected a string, got 5"#)
        #expect(try error("conformance.Maps", #"{"int32Key": {"x": "a"}}"#) == #"$.int32Key["x"]: expected an integer (int32), got "x""#)
        #expect(try error("conformance.Scalars", #"{"fEnum": "PURPLE"}"#) == #"$.fEnum: "PURPLE" is no value of conformance.Color (its values: COLOR_UNSPECIFIED, RED, GREEN, NEGATIVE)"#)
        #expect(try error("conformance.Scalars", #"{"fInt64": "9223372036854775808"}"#) == #"$.fInt64: "9223372036854775808" is out of range for int64"#)
        #expect(try error("conformance.Scalars", #"{"cString": "a", "cInt64": "1"}"#) == #"$.cInt64: "cString" and "cInt64" are both set, but only one field of the oneof 'choice' may be"#)
        #expect(try error("conformance.Scalars", #"{"renamed": 1, "custom": 2}"#) == #"$.custom: the field is given twice (as "renamed" and "custom")"#)
        #expect(try error("conformance.WellKnown", #"{"timestamp": "yesterday"}"#) == #"$.timestamp: "yesterday" is not an RFC 3339 time such as "1972-01-01T10:00:20.021Z""#)
        #expect(try error("conformance.WellKnown", #"{"any": {"@type": "type.googleapis.com/x.Y"}}"#) == #"$.any["@type"]: the Any's type "type.googleapis.com/x.Y" names no message type of the descriptor set"#)
        #expect(try error("conformance.Legacy", #"{"child": {"id": 1}}"#) == #"$: conformance.Legacy requires the field "id", which is missing"#)
        #expect(try error("conformance.Scalars", #"{"fInt32": 1, "fInt32": 2}"#) == #"$: invalid JSON at line 1, column 15: the key "fInt32" is given twice in one object"#)
        #expect(try error("conformance.Scalars", "[]") == "$: expected an object (conformance.Scalars), got an array")
        // A message read from binary may lack a required field; its JSON reads back when asked not to check.
        let pool = try Reference.require().pool
        let legacy = try pool.messageType(named: "conformance.Legacy")
        let partial = try pool.json(try pool.decode([0x12, 0x01, 0x78], as: legacy))
        #expect(try pool.message(fromJSON: partial, as: legacy, options: ProtoJSONParseOptions(checksRequiredFields: false)) == pool.decode([0x12, 0x01, 0x78], as: legacy))
    }

    @Test func binaryErrorsNameTheFieldAndTheByte() throws {
        let pool = try Reference.require().pool
        let scalars = try pool.messageType(named: "conformance.Scalars")
        #expect(throws: ProtoCodecError("a length of 5 bytes where 1 remain (at byte 2)", path: [.field("fMessage")])) {
            try pool.decode([0x9A, 0x01, 0x05, 0x08], as: scalars)
        }
        #expect(throws: ProtoCodecError("the message ends inside a varint (at byte 5)", path: [.field("rMessage"), .index(0), .field("latitude")])) {
            try pool.decode([0xCA, 0x03, 0x02, 0x08, 0x80], as: scalars)
        }
        // A length prefix past the end is refused before anything is allocated.
        #expect(throws: ProtoCodecError("a length of 4611686018427387904 bytes where 0 remain (at byte 1)", path: [.field("fBytes")])) {
            try pool.decode([0x62, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40], as: scalars)
        }
        #expect(throws: ProtoCodecError("the string is not valid UTF-8 (at byte 1)", path: [.field("fString")])) {
            try pool.decode([0x4A, 0x01, 0xFF], as: scalars)
        }
        #expect(throws: ProtoCodecError("a field numbered 0 (at byte 0)")) { try pool.decode([0x00, 0x01], as: scalars) }
    }

    @Test func unknownFieldsAreKeptAndTheirNumbersTold() throws {
        let pool = try Reference.require().pool
        let wider = try pool.messageType(named: "conformance.WiderPoint")
        let bytes = try pool.encodeJSON(#"{"latitude": 1, "label": "abc", "extra": ["5"], "f64": "9"}"#, as: wider)
        let point = try pool.decode(bytes, as: try pool.messageType(named: "conformance.Point"))
        #expect(point.unknownFieldNumbers == [3, 4, 7])
        #expect(try pool.json(point) == ["latitude": 1])
        #expect(pool.encode(point) == bytes)
    }

    @Test func optionsWriteProtoNamesEnumNumbersAndDefaults() throws {
        let pool = try Reference.require().pool
        let scalars = try pool.messageType(named: "conformance.Scalars")
        let message = try pool.message(fromJSONText: #"{"fEnum": "RED", "snakeCaseFieldName": 2, "rEnum": ["GREEN"]}"#, as: scalars)
        #expect(try pool.json(message, options: ProtoJSONOptions(protoFieldNames: true)) == ["f_enum": "RED", "r_enum": ["GREEN"], "snake_case_field_name": 2])
        #expect(try pool.json(message, options: ProtoJSONOptions(enumsAsNumbers: true)) == ["fEnum": 1, "rEnum": [2], "snakeCaseFieldName": 2])
        let point = try pool.messageType(named: "routeguide.Point")
        #expect(try pool.decodeToJSON([], as: point, options: ProtoJSONOptions(emitDefaults: true)) == ["latitude": 0, "longitude": 0])
        #expect(try pool.decodeToJSON([], as: point) == [:])
    }

    @Test func numbersAreWrittenTheShortestWayThatReadsBack() throws {
        let pool = try Reference.require().pool
        let scalars = try pool.messageType(named: "conformance.Scalars")
        let cases: [(String, String)] = [
            ("1", "1"), ("1.0", "1"), ("-0.0", "-0"), ("0.1", "0.1"), ("1e21", "1e+21"), ("1e20", "100000000000000000000"), ("1e-7", "1e-7"),
            ("0.000001", "0.000001"), ("123.456", "123.456"), ("5e-324", "5e-324"), ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("-2.5e-10", "-2.5e-10"), ("12345678901234567890", "12345678901234567000"),
        ]
        for (input, expected) in cases {
            let json = try pool.json(try pool.message(fromJSONText: #"{"fDouble": \#(input)}"#, as: scalars))
            #expect(json["fDouble"] == .number(expected), "double \(input)")
        }
        for (input, expected) in [("0.1", "0.1"), ("16777217", "16777216"), ("3.4028234663852886e38", "3.4028235e+38"), ("1e-45", "1e-45")] {
            let json = try pool.json(try pool.message(fromJSONText: #"{"fFloat": \#(input)}"#, as: scalars))
            #expect(json["fFloat"] == .number(expected), "float \(input)")
        }
    }

    @Test func aSkeletonHasEveryFieldAtItsDefaultAndReadsBack() throws {
        let reference = try Reference.require()
        let pool = reference.pool
        #expect(pool.skeleton(of: try pool.messageType(named: "routeguide.Feature")) == ["name": "", "location": ["latitude": 0, "longitude": 0]])
        let legacy = pool.skeleton(of: try pool.messageType(named: "conformance.Legacy"))
        #expect(legacy["name"] == "unnamed")
        #expect(legacy["big"] == "-5")
        #expect(legacy["level"] == "HIGH")
        #expect(legacy["ratio"] == "Infinity")
        #expect(legacy["on"] == true)
        #expect(legacy["ratio32"] == 1.5)
        #expect(legacy["child"] == [:], "a type inside itself is left empty")
        let scalars = pool.skeleton(of: try pool.messageType(named: "conformance.Scalars"))
        #expect(scalars["fInt64"] == "0")
        #expect(scalars["fEnum"] == "COLOR_UNSPECIFIED")
        #expect(scalars["rMessage"] == [["latitude": 0, "longitude": 0]])
        #expect(scalars["cString"] == "", "the first field of a oneof")
        #expect(scalars["cInt64"] == nil, "the oneof's other fields are left out")
        let maps = pool.skeleton(of: try pool.messageType(named: "conformance.Maps"))
        #expect(maps["boolKey"] == ["false": ""])
        #expect(maps["int64Key"] == ["0": ""])
        let wellKnown = pool.skeleton(of: try pool.messageType(named: "conformance.WellKnown"))
        #expect(wellKnown["timestamp"] == "1970-01-01T00:00:00Z")
        #expect(wellKnown["duration"] == "0s")
        #expect(wellKnown["int64Value"] == "0")
        #expect(wellKnown["value"] == nil || wellKnown["value"] == .null)
        // Every skeleton reads back, by ProtoJSON and by the reference.
        let names = pool.messages.filter { !$0.isMapEntry && $0.wellKnown == nil }.map(\.fullName)
        try reference.check(names.map { Reference.Case(type: $0, operation: .parse(pool.skeleton(of: try pool.messageType(named: $0)).compactText)) })
    }

    @Test func fieldInfoNamesTypesAndEnumValues() throws {
        let pool = try Reference.require().pool
        let scalars = try pool.messageType(named: "conformance.Scalars")
        let fields = pool.fieldInfo(of: scalars)
        let int64 = try #require(fields.first { $0.name == "f_int64" })
        #expect(int64.jsonName == "fInt64" && int64.typeName == "int64" && int64.jsonType == "string (int64)" && int64.cardinality == .singular)
        let color = try #require(fields.first { $0.name == "o_enum" })
        #expect(color.cardinality == .optional && color.enumValues == ["COLOR_UNSPECIFIED", "RED", "GREEN", "NEGATIVE"])
        let choice = try #require(fields.first { $0.name == "c_point" })
        #expect(choice.oneof == "choice" && choice.typeName == "conformance.Point")
        #expect(fields.first { $0.name == "r_bytes" }?.jsonType == "array of string (base64)")
        let maps = pool.fieldInfo(of: try pool.messageType(named: "conformance.Maps"))
        let enumMap = try #require(maps.first { $0.name == "enum_value" })
        #expect(enumMap.cardinality == .map && enumMap.typeName == "map<string, conformance.Color>" && enumMap.enumValues.count == 4)
        let wellKnown = pool.fieldInfo(of: try pool.messageType(named: "conformance.WellKnown"))
        #expect(wellKnown.first { $0.name == "timestamp" }?.jsonType == "string (RFC 3339 time)")
        #expect(wellKnown.first { $0.name == "int32_value" }?.jsonType == "number (int32) or null")

        let latitude = pool.fieldInfo(at: [.field("rMessage"), .index(3), .field("latitude")], in: scalars)
        #expect(latitude?.typeName == "int32")
        #expect(pool.fieldInfo(at: [.field("f_inner"), .field("deeper"), .field("text")], in: scalars)?.typeName == "string")
        #expect(pool.fieldInfo(at: [.field("fInt32"), .field("x")], in: scalars) == nil)
        #expect(pool.fieldInfo(at: [.field("fInt32"), .index(0)], in: scalars) == nil)
        #expect(pool.fieldInfo(at: [.field("legacy")], in: scalars) == nil)
        #expect(pool.legacyRequiredInfo() == .required)
    }
}

extension DescriptorPool {
    fileprivate func legacyRequiredInfo() -> ProtoFieldInfo.Cardinality? {
        messageID(named: "conformance.Legacy").flatMap { fieldInfo(of: $0).first?.cardinality }
    }
}
