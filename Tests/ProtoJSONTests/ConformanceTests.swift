import Foundation
import Testing
import TestTraits

/// ProtoJSON against the reference implementation over the same descriptors (Resources/protos):
/// every case is converted by both, which must both refuse it or give the same bytes and JSON.
@Suite(.offPool) struct ConformanceTests {
    private func parse(_ type: String, _ cases: [String], emitDefaults: Bool = false) -> [Reference.Case] {
        cases.map { Reference.Case(type: "conformance.\(type)", operation: .parse($0), emitDefaults: emitDefaults) }
    }

    private func print(_ type: String, _ hexCases: [String], emitDefaults: Bool = false) -> [Reference.Case] {
        hexCases.map { Reference.Case(type: "conformance.\(type)", operation: .print(HexText.bytes($0.replacingOccurrences(of: " ", with: ""))), emitDefaults: emitDefaults) }
    }

    @Test func integersOfEveryWidthAndTheirEdges() throws {
        try Reference.require().check(
            parse(
                "Scalars",
                [
                    #"{"fInt32": 2147483647, "fSint32": -2147483648, "fSfixed32": -1, "fUint32": 4294967295, "fFixed32": 4294967295}"#,
                    #"{"fInt32": -2147483648, "fSint32": 2147483647, "fSfixed32": 2147483647}"#,
                    #"{"fInt32": "123", "fUint32": "7", "fSint32": "-5"}"#,
                    #"{"fInt32": 1e2, "fInt64": 1e18, "fUint32": 5.0, "fUint64": "1e3"}"#,
                    #"{"fInt32": "1e2", "fSfixed64": "-2.5e1"}"#,
                    #"{"fInt64": "9223372036854775807", "fSint64": "-9223372036854775808", "fSfixed64": "-9223372036854775808"}"#,
                    #"{"fInt64": 9223372036854775807, "fUint64": 18446744073709551615, "fFixed64": "18446744073709551615"}"#,
                    #"{"fInt64": "-1", "fSint64": "1", "fUint64": "0", "fFixed64": 0}"#,
                    #"{"fInt32": -1, "fInt64": -1}"#,
                    #"{"fInt32": 1.5}"#,
                    #"{"fInt32": 2147483648}"#,
                    #"{"fInt32": -2147483649}"#,
                    #"{"fUint32": 4294967296}"#,
                    #"{"fUint32": -1}"#,
                    #"{"fUint64": -1}"#,
                    #"{"fUint64": "18446744073709551616"}"#,
                    #"{"fInt64": "9223372036854775808"}"#,
                    #"{"fInt64": "-9223372036854775809"}"#,
                    #"{"fInt32": "abc"}"#,
                    #"{"fInt32": ""}"#,
                    #"{"fInt32": " 1"}"#,
                    #"{"fInt32": true}"#,
                    #"{"fInt32": [1]}"#,
                    #"{"fInt64": {}}"#,
                    #"{"fInt32": 1e400}"#,
                    #"{"fSfixed32": 0.5e1}"#,
                ]))
    }

    @Test func floatsAndDoublesWithTheirSpecialValues() throws {
        try Reference.require().check(
            parse(
                "Scalars",
                [
                    #"{"fFloat": 0.1, "fDouble": 0.1}"#,
                    #"{"fFloat": 3.4028234663852886e38, "fDouble": 1.7976931348623157e308}"#,
                    #"{"fFloat": -3.4028234663852886e38, "fDouble": -1.7976931348623157e308}"#,
                    #"{"fFloat": 1e-45, "fDouble": 5e-324}"#,
                    #"{"fFloat": 1.17549435e-38, "fDouble": 2.2250738585072014e-308}"#,
                    #"{"fFloat": "NaN", "fDouble": "NaN"}"#,
                    #"{"fFloat": "Infinity", "fDouble": "-Infinity"}"#,
                    #"{"fFloat": "-Infinity", "fDouble": "Infinity"}"#,
                    #"{"fFloat": "1.5", "fDouble": "-2.25e3"}"#,
                    #"{"fFloat": -0.0, "fDouble": -0.0}"#,
                    #"{"fFloat": 16777217, "fDouble": 9007199254740993}"#,
                    #"{"fFloat": 1e-50, "fDouble": 1e-320}"#,
                    #"{"fFloat": 123456.789, "fDouble": 123456789012345680000}"#,
                    #"{"fFloat": 1e21, "fDouble": 1e21}"#,
                    #"{"fFloat": 1e-7, "fDouble": 1e-7}"#,
                    #"{"fFloat": 0.000001, "fDouble": 0.000001}"#,
                    #"{"fFloat": 100, "fDouble": 1e15}"#,
                    #"{"fFloat": 3.14159265358979, "fDouble": 3.141592653589793}"#,
                    #"{"fFloat": 0.3, "fDouble": 0.30000000000000004}"#,
                    #"{"rFloat": [1.1, 2.2, 3.3e30, 7e-30], "rDouble": [1.1, 2.2, 1e100, 1.5e-100]}"#,
                    #"{"fFloat": 3.5e38}"#,
                    #"{"fFloat": -3.5e38}"#,
                    #"{"fDouble": 1e400}"#,
                    #"{"fDouble": -1e400}"#,
                    #"{"fDouble": "nan"}"#,
                    #"{"fDouble": "abc"}"#,
                    #"{"fFloat": null, "fDouble": null}"#,
                ]))
    }

    @Test func boolsStringsBytesAndEnums() throws {
        try Reference.require().check(
            parse(
                "Scalars",
                [
                    #"{"fBool": true, "fString": "héllo 😀 \u0000 \n \" \\ /", "fBytes": "AQID"}"#,
                    #"{"fBool": false, "fString": "", "fBytes": ""}"#,
                    #"{"fBytes": "-_8"}"#,
                    #"{"fBytes": "+/8="}"#,
                    #"{"fBytes": "AQI"}"#,
                    #"{"fBytes": "AQI="}"#,
                    #"{"fBytes": "AA"}"#,
                    #"{"fBytes": "SGVsbG8sIFdvcmxkIQ=="}"#,
                    #"{"fBytes": "A"}"#,
                    #"{"fBytes": 5}"#,
                    #"{"fBool": "true"}"#,
                    #"{"fBool": 1}"#,
                    #"{"fString": 5}"#,
                    #"{"fString": null}"#,
                    #"{"fEnum": "RED"}"#,
                    #"{"fEnum": 2}"#,
                    #"{"fEnum": "NEGATIVE"}"#,
                    #"{"fEnum": -1}"#,
                    #"{"fEnum": 7}"#,
                    #"{"fEnum": "2"}"#,
                    #"{"fEnum": "COLOR_UNSPECIFIED"}"#,
                    #"{"fEnum": "PURPLE"}"#,
                    #"{"rEnum": ["RED", 2, 9, "NEGATIVE"]}"#,
                    #"{"rEnum": ["RED", "PURPLE"]}"#,
                    #"{"rString": ["a", "", "ü"], "rBytes": ["AQ==", "", "_w"], "rBool": [true, false, true]}"#,
                ]))
    }

    @Test func repeatedFieldsPackedAndNot() throws {
        try Reference.require().check(
            parse(
                "Scalars",
                [
                    #"{"rInt32": [1, -1, 2147483647], "rInt64": ["1", -2, "9223372036854775807"], "rUint32": [0, 4294967295], "rUint64": ["18446744073709551615", 1]}"#,
                    #"{"rSint32": [-1, 1, -2147483648], "rSint64": ["-9223372036854775808", 3], "rFixed32": [1, 2], "rFixed64": ["3"], "rSfixed32": [-3], "rSfixed64": ["-4"]}"#,
                    #"{"rUnpacked": [1, 2, 300], "rMessage": [{"latitude": 1}, {}, {"longitude": -2}]}"#,
                    #"{"rInt32": [], "rMessage": [], "rUnpacked": []}"#,
                    #"{"rInt32": null}"#,
                    #"{"rInt32": [null]}"#,
                    #"{"rMessage": [null]}"#,
                    #"{"rInt32": 5}"#,
                    #"{"rInt32": [1, "x"]}"#,
                    #"{"rMessage": {"latitude": 1}}"#,
                ]))
    }

    @Test func nestingOneofsNamesAndNulls() throws {
        try Reference.require().check(
            parse(
                "Scalars",
                [
                    #"{"fMessage": {"latitude": 1, "longitude": -2}}"#,
                    #"{"fMessage": {}}"#,
                    #"{"fMessage": null}"#,
                    #"{"fInner": {"value": 3, "deeper": {"text": "deep"}}}"#,
                    #"{"fImported": {"name": "n", "kind": "LABEL"}}"#,
                    #"{"oInt32": 0, "oString": "", "oEnum": "COLOR_UNSPECIFIED", "oDouble": 0}"#,
                    #"{"oInt32": null, "oString": null}"#,
                    #"{"cString": "x"}"#,
                    #"{"cString": ""}"#,
                    #"{"cInt64": "0"}"#,
                    #"{"cPoint": {}}"#,
                    #"{"cEnum": "COLOR_UNSPECIFIED"}"#,
                    #"{"cBytes": ""}"#,
                    #"{"cString": "x", "cInt64": null}"#,
                    #"{"cString": "x", "cInt64": "5"}"#,
                    #"{"cPoint": {}, "cEnum": "RED"}"#,
                    #"{"renamed": 5}"#,
                    #"{"custom": 5}"#,
                    #"{"snakeCaseFieldName": 1}"#,
                    #"{"snake_case_field_name": 1}"#,
                    #"{"f_int32": 4, "f_message": {"latitude": 1}}"#,
                    #"{"fInt32": 1, "fInt32": 2}"#,
                    #"{"nope": 1}"#,
                    #"{"fMessage": {"nope": 1}}"#,
                    #"{"fMessage": 5}"#,
                    #""x""#,
                    #"null"#,
                    #"{"fInt32": 1"#,
                    #"{}"#,
                ]))
    }

    @Test func emitDefaultsPrintsFieldsWithoutPresence() throws {
        let reference = try Reference.require()
        try reference.check(parse("Scalars", [#"{}"#, #"{"fInt32": 5, "oInt32": 0, "cString": "x"}"#], emitDefaults: true))
        try reference.check(parse("Maps", [#"{}"#], emitDefaults: true))
        try reference.check(parse("WellKnown", [#"{}"#, #"{"int32Value": 0}"#], emitDefaults: true))
        try reference.check(parse("Legacy", [#"{"id": 1}"#], emitDefaults: true))
        try reference.check(parse("Editions", [#"{}"#], emitDefaults: true))
    }

    @Test func mapsOfEveryKeyType() throws {
        try Reference.require().check(
            parse(
                "Maps",
                [
                    #"{"int32Key": {"-2147483648": "min", "2147483647": "max", "0": "zero"}}"#,
                    #"{"int64Key": {"-9223372036854775808": "min", "9223372036854775807": "max"}}"#,
                    #"{"uint32Key": {"4294967295": "max", "1": "one"}, "uint64Key": {"18446744073709551615": "max"}}"#,
                    #"{"sint32Key": {"-1": "a", "1": "b"}, "sint64Key": {"-5": "c"}}"#,
                    #"{"fixed32Key": {"7": "a"}, "fixed64Key": {"8": "b"}, "sfixed32Key": {"-9": "c"}, "sfixed64Key": {"-10": "d"}}"#,
                    #"{"boolKey": {"true": "t", "false": "f"}}"#,
                    #"{"stringKey": {"": "empty", "b": "B", "a": "A", "ü": "u"}}"#,
                    #"{"messageValue": {"p": {"latitude": 1}, "q": {}}}"#,
                    #"{"enumValue": {"a": "RED", "b": 2, "c": 9}}"#,
                    #"{"bytesValue": {"a": "AQID", "b": ""}, "doubleValue": {"n": "NaN", "i": "Infinity", "x": 1.5}, "int64Value": {"a": "5", "b": 6}}"#,
                    #"{"int32Key": {}}"#,
                    #"{"int32Key": null}"#,
                    #"{"int32Key": {"1.5": "x"}}"#,
                    #"{"int32Key": {"abc": "x"}}"#,
                    #"{"int32Key": {"2147483648": "x"}}"#,
                    #"{"uint32Key": {"-1": "x"}}"#,
                    #"{"boolKey": {"1": "x"}}"#,
                    #"{"boolKey": {"True": "x"}}"#,
                    #"{"stringKey": {"a": null}}"#,
                    #"{"messageValue": {"a": null}}"#,
                    #"{"stringKey": {"a": 1}}"#,
                    #"{"enumValue": {"a": "PURPLE"}}"#,
                    #"{"stringKey": []}"#,
                ]))
    }

    @Test func timestampsAndDurations() throws {
        try Reference.require().check(
            parse(
                "WellKnown",
                [
                    #"{"timestamp": "1970-01-01T00:00:00Z"}"#,
                    #"{"timestamp": "1972-01-01T10:00:20.021Z", "duration": "1.5s"}"#,
                    #"{"timestamp": "2024-02-29T12:00:00.123456Z", "duration": "-1.5s"}"#,
                    #"{"timestamp": "2001-02-03T04:05:06.123456789Z", "duration": "1.000000001s"}"#,
                    #"{"timestamp": "2001-02-03T04:05:06.1Z", "duration": "0.1s"}"#,
                    #"{"timestamp": "1972-01-01T10:00:20+01:00", "duration": "-0.5s"}"#,
                    #"{"timestamp": "1972-01-01T10:00:20.5-05:30", "duration": "0s"}"#,
                    #"{"timestamp": "0001-01-01T00:00:00Z", "duration": "315576000000s"}"#,
                    #"{"timestamp": "9999-12-31T23:59:59.999999999Z", "duration": "-315576000000s"}"#,
                    #"{"timestamp": "1969-12-31T23:59:59.999Z", "duration": "-0.000000001s"}"#,
                    #"{"timestamps": ["1970-01-01T00:00:01Z", "2000-01-01T00:00:00Z"]}"#,
                    #"{"timestamp": "1970-01-01T00:00:00"}"#,
                    #"{"timestamp": "1970-01-01 00:00:00Z"}"#,
                    #"{"timestamp": "1970-01-01t00:00:00Z"}"#,
                    #"{"timestamp": "1970-01-01T00:00:00z"}"#,
                    #"{"timestamp": "1970-13-01T00:00:00Z"}"#,
                    #"{"timestamp": "2023-02-29T00:00:00Z"}"#,
                    #"{"timestamp": "1970-01-01T24:00:00Z"}"#,
                    #"{"timestamp": "1970-01-01T00:00:00.1234567891Z"}"#,
                    #"{"timestamp": "0000-12-31T23:59:59Z"}"#,
                    #"{"timestamp": 5}"#,
                    #"{"timestamp": ""}"#,
                    #"{"duration": "315576000001s"}"#,
                    #"{"duration": "-315576000001s"}"#,
                    #"{"duration": "1"}"#,
                    #"{"duration": "1.5"}"#,
                    #"{"duration": "s"}"#,
                    #"{"duration": 1.5}"#,
                    #"{"duration": "1.5ms"}"#,
                ]))
    }

    @Test func anyResolvedThroughThePool() throws {
        try Reference.require().check(
            parse(
                "WellKnown",
                [
                    #"{"any": {"@type": "type.googleapis.com/conformance.Point", "latitude": 1, "longitude": 2}}"#,
                    #"{"any": {"longitude": 2, "@type": "type.googleapis.com/conformance.Point"}}"#,
                    #"{"any": {"@type": "type.googleapis.com/conformance.Point"}}"#,
                    #"{"any": {"@type": "example.com/x/conformance.Scalars", "fInt64": "5", "rEnum": ["RED"]}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1.5s"}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Timestamp", "value": "1970-01-01T00:00:00Z"}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Struct", "value": {"a": [1, "b"]}}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Value", "value": null}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Int64Value", "value": "5"}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Empty"}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Empty", "value": {}}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Any", "value": {"@type": "type.googleapis.com/conformance.Point", "latitude": 3}}}"#,
                    #"{"any": {"@type": "type.googleapis.com/conformance.WellKnown", "any": {"@type": "type.googleapis.com/conformance.Point", "latitude": 4}}}"#,
                    #"{"anys": [{"@type": "type.googleapis.com/conformance.Point", "latitude": 1}, {}]}"#,
                    #"{"any": {}}"#,
                    #"{"any": {"@type": "type.googleapis.com/nope.Missing"}}"#,
                    #"{"any": {"latitude": 1}}"#,
                    #"{"any": {"@type": "type.googleapis.com/conformance.Point", "nope": 1}}"#,
                    #"{"any": {"@type": 5}}"#,
                    #"{"any": {"@type": "type.googleapis.com/google.protobuf.Duration"}}"#,
                    #"{"any": "x"}"#,
                ]))
    }

    @Test func structValueListValueAndNull() throws {
        try Reference.require().check(
            parse(
                "WellKnown",
                [
                    #"{"struct": {"a": 1, "b": "s", "c": true, "d": null, "e": [1, [2], {}], "f": {"g": {"h": -1.5}}}}"#,
                    #"{"struct": {}}"#,
                    #"{"struct": null}"#,
                    #"{"value": 1}"#,
                    #"{"value": "s"}"#,
                    #"{"value": false}"#,
                    #"{"value": null}"#,
                    #"{"value": [1, "a", null]}"#,
                    #"{"value": {"x": {}}}"#,
                    #"{"value": 12345678901234567890}"#,
                    #"{"listValue": []}"#,
                    #"{"listValue": [1, [2], {"a": null}]}"#,
                    #"{"values": [null, 1, "x", [], {}]}"#,
                    #"{"valueMap": {"a": null, "b": [1], "c": {"d": "e"}}}"#,
                    #"{"nullValue": null}"#,
                    #"{"nullValue": "NULL_VALUE"}"#,
                    #"{"nullValue": 0}"#,
                    #"{"optionalNull": null}"#,
                    #"{"struct": []}"#,
                    #"{"struct": 5}"#,
                    #"{"listValue": 5}"#,
                    #"{"listValue": {}}"#,
                    #"{"nullValue": 1}"#,
                ]))
    }

    @Test func wrappersFieldMasksAndEmpty() throws {
        try Reference.require().check(
            parse(
                "WellKnown",
                [
                    #"{"doubleValue": 1.5, "floatValue": 0.1, "int64Value": "-5", "uint64Value": "18446744073709551615", "int32Value": -3}"#,
                    #"{"uint32Value": 4294967295, "boolValue": true, "stringValue": "s", "bytesValue": "AQID"}"#,
                    #"{"doubleValue": 0, "floatValue": 0, "int64Value": 0, "uint64Value": "0", "int32Value": 0, "uint32Value": 0, "boolValue": false, "stringValue": "", "bytesValue": ""}"#,
                    #"{"doubleValue": "NaN", "floatValue": "-Infinity", "int64Value": 5}"#,
                    #"{"int32Value": null, "stringValue": null}"#,
                    #"{"int32Value": "x"}"#,
                    #"{"int32Value": {"value": 1}}"#,
                    #"{"boolValue": "true"}"#,
                    #"{"fieldMask": "a,b.c"}"#,
                    #"{"fieldMask": "fooBar.bazQux,x"}"#,
                    #"{"fieldMask": ""}"#,
                    #"{"fieldMask": "a_b"}"#,
                    #"{"fieldMask": ["a"]}"#,
                    #"{"empty": {}}"#,
                    #"{"empty": {"x": 1}}"#,
                    #"{"empty": null}"#,
                ]))
    }

    @Test func proto2DefaultsPresenceRequiredAndGroups() throws {
        try Reference.require().check(
            parse(
                "Legacy",
                [
                    #"{"id": 1}"#,
                    #"{"id": 0, "name": "", "big": "0", "on": false, "ratio": 0, "data": ""}"#,
                    #"{"id": 1, "level": "LOW", "levels": ["HIGH", 1]}"#,
                    #"{"id": 1, "ratio": "Infinity", "ratio32": "NaN"}"#,
                    #"{"id": 1, "unpacked": [1, 2], "packed": [3, 4]}"#,
                    #"{"id": 1, "item": {"count": 5}}"#,
                    #"{"id": 1, "item": {}}"#,
                    #"{"id": 1, "child": {"id": 2, "child": {"id": 3}}}"#,
                    #"{"name": "x"}"#,
                    #"{"id": 1, "child": {}}"#,
                    #"{"id": 1, "level": 3}"#,
                    #"{"id": 1, "level": "MEDIUM"}"#,
                    #"{"id": 1, "levels": [1, 5]}"#,
                ]))
    }

    @Test func editionsFeatures() throws {
        try Reference.require().check(
            parse(
                "Editions",
                [
                    #"{"explicitInt": 0, "implicitInt": 0}"#,
                    #"{"explicitInt": 5, "implicitInt": 6, "text": ""}"#,
                    #"{"closed": "CLOSED_ONE"}"#,
                    #"{"closed": 2}"#,
                    #"{"packed": [1, 2, 3], "expanded": [4, 5]}"#,
                    #"{"child": {"child": {"text": "deep"}, "explicitInt": 1}}"#,
                    #"{"closed": 5}"#,
                    #"{"closed": "CLOSED_THREE"}"#,
                ]))
    }

    @Test func recursionUpToTheDepthLimit() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: #"{"child": "#, count: depth - 1) + #"{"value": 1}"# + String(repeating: "}", count: depth - 1)
        }
        try Reference.require().check(parse("Node", [nested(2), nested(50), nested(100), nested(101), nested(150)]))
        func nestedBinary(_ depth: Int) -> String {
            var bytes: [UInt8] = [0x08, 0x01]
            for _ in 1..<depth { bytes = [0x12] + Self.varint(bytes.count) + bytes }
            return HexText.string(bytes)
        }
        try Reference.require().check(print("Node", [nestedBinary(2), nestedBinary(99), nestedBinary(100), nestedBinary(101), nestedBinary(102), nestedBinary(200)]))
    }

    static func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(value)
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    @Test func binaryUnknownFieldsAreKeptAndLeftOutOfJSON() throws {
        try Reference.require().check(
            print(
                "Point",
                [
                    // WiderPoint: latitude 1, label "abc", extra [5, 6], nested {latitude 7}, fixed32, fixed64.
                    "08 01 1a 03 616263 20 05 20 06 2a 02 0807 35 01020304 39 0102030405060708",
                    // An unknown group (field 9) with a varint inside, between two known fields.
                    "08 01 4b 08 05 4c 10 02",
                    // Known fields with the wrong wire type: kept as unknown.
                    "0d 01000000 10 03",
                    "0a 01 ff",
                ]))
        try Reference.require().check(
            print(
                "Scalars",
                [
                    // f_double as fixed32; f_int64 = 1.
                    "0d 00000080 18 01",
                    // A packed list sent unpacked, an unpacked one sent packed.
                    "e8 02 01 e8 02 02 d2 03 02 0304",
                    // A message field twice is merged; a scalar twice keeps the last.
                    "9a 01 02 0801 9a 01 02 1002 28 01 28 02",
                    // Two members of a oneof: the last wins.
                    "ea 03 01 78 f0 03 05",
                    "f0 03 05 ea 03 01 78",
                    // int32 -1 in ten bytes and in five (both accepted), bool 2 (true).
                    "28 ffffffffffffffffff01 40 02",
                    "28 ffffffff0f",
                    // An enum number the open enum does not name.
                    "70 09",
                    // An empty length-delimited field and a zero written explicitly (implicit presence).
                    "4a 00 28 00",
                ]))
        try Reference.require().check(
            print(
                "Legacy",
                [
                    // A closed enum's unknown number goes to the unknown fields.
                    "08 01 20 09 20 01",
                    "08 01 48 01 48 07 48 02",
                    "08 01 42 03 01 09 02",
                    // A group.
                    "08 01 53 58 05 54",
                    // Missing required id: the reference reads it.
                    "12 01 78",
                ]))
        try Reference.require().check(
            print(
                "Maps",
                [
                    // Entries out of order, a repeated key (the last wins), an entry without key or value.
                    "62 06 0a 01 62 12 01 42 62 06 0a 01 61 12 01 41 62 06 0a 01 62 12 01 43 62 00",
                    // An entry with an unknown field, an entry with fields in reverse order.
                    "62 09 0a 01 61 12 01 41 18 07 62 06 12 01 42 0a 01 63",
                    "0a 0d 08 ffffffffffffffffff01 12 01 6d",
                    "6a 06 0a 01 70 12 01 0a",
                ]))
    }

    @Test func damagedBinaryIsRefusedByBoth() throws {
        try Reference.require().check(
            print(
                "Scalars",
                [
                    "28", "28 80", "4a 05 6162", "4a ffffffffffffffffff01 00", "0f", "00 01", "2c", "2b", "2b 28 01",
                    "28 80808080808080808080 01", "4a 01 ff", "4a 02 c328", "9a 01 03 0801",
                    "9a 01 02 0f 00", "f8 ffffffff 1f 01",
                ]))
    }

    @Test func wellKnownValuesJSONCannotWriteAreRefusedByBoth() throws {
        try Reference.require().check(
            print(
                "WellKnown",
                [
                    // Timestamp seconds before year 1, after 9999; nanos out of range.
                    "0a 0b 08 ffffffffffffffffff01",
                    "0a 06 08 80 80 80 80 80 08",
                    "0a 06 10 80 94 eb dc 03",
                    // Duration seconds and nanos of different signs.
                    "12 0d 08 01 10 ffffffffffffffffff01",
                    // A FieldMask path with an upper-case letter; with a trailing underscore.
                    "42 08 0a 06 666f6f426172",
                    "42 06 0a 04 666f6f5f",
                    // A Value holding NaN.
                    "2a 09 11 000000000000f87f",
                    // An Any of a type the pool does not have; an Any whose bytes do not read.
                    "1a 1a 0a 18 747970652e676f6f676c65617069732e636f6d2f782e59",
                    "1a 2d 0a 28 747970652e676f6f676c65617069732e636f6d2f636f6e666f726d616e63652e506f696e74 12 01 08",
                    // An Any with a type and no value: the type's default.
                    "1a 2a 0a 28 747970652e676f6f676c65617069732e636f6d2f636f6e666f726d616e63652e506f696e74",
                ]))
    }

    @Test func theRouteGuideMessages() throws {
        try Reference.require().check([
            Reference.Case(type: "routeguide.Feature", operation: .parse(#"{"name": "Berkshire Valley Management Area Trail", "location": {"latitude": 409146138, "longitude": -746188906}}"#)),
            Reference.Case(type: "routeguide.Rectangle", operation: .parse(#"{"lo": {"latitude": 400000000, "longitude": -750000000}, "hi": {"latitude": 420000000, "longitude": -730000000}}"#)),
            Reference.Case(type: "routeguide.RouteSummary", operation: .parse(#"{"pointCount": 10, "featureCount": 2, "distance": 1000, "elapsedTime": 5}"#), emitDefaults: true),
        ])
    }
}
