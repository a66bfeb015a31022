import Foundation
import Testing
import TestTraits

/// Where ProtoJSON differs from the reference implementation on purpose: Python's parser is more
/// lenient than the JSON mapping (and than protobuf's C++ and Go parsers) in these places. Each
/// test shows what the reference does, so that a change there is noticed.
@Suite(.offPool) struct DifferenceTests {
    private func both(_ type: String, _ operation: Reference.Operation) throws -> (ours: Reference.Outcome, theirs: Reference.Outcome) {
        let reference = try Reference.require()
        let testCase = Reference.Case(type: "conformance.\(type)", operation: operation)
        return (reference.ours(testCase), try reference.outcomes([testCase])[0])
    }

    @Test func bytesWithCharactersOutsideBase64AreRefused() throws {
        // The reference drops what is not base64 ("@@@" reads as no bytes at all).
        let (ours, theirs) = try both("Scalars", .parse(#"{"fBytes": "@@@"}"#))
        #expect(ours.isRefused)
        #expect(!theirs.isRefused)
    }

    @Test func integersWithDigitSeparatorsAreRefused() throws {
        // The reference reads strings with Python's int(): "1_000" is a thousand there.
        let (ours, theirs) = try both("Scalars", .parse(#"{"fInt32": "1_000"}"#))
        #expect(ours.isRefused)
        #expect(!theirs.isRefused)
    }

    @Test func durationsWithMoreThanNineFractionalDigitsAreRefused() throws {
        // The reference rounds them to nanoseconds (and refuses them in timestamps).
        let (ours, theirs) = try both("WellKnown", .parse(#"{"duration": "1.0000000001s"}"#))
        #expect(ours.isRefused)
        #expect(!theirs.isRefused)
    }

    @Test func invalidUTF8InAProto2StringIsRefused() throws {
        // The reference writes Python's representation of the bytes (b'x\xff') as the string.
        let (ours, theirs) = try both("Legacy", .print([0x08, 0x01, 0x12, 0x02, 0x78, 0xFF]))
        #expect(ours.isRefused)
        guard case .converted(_, let json) = theirs else {
            Issue.record("the reference refused it")
            return
        }
        #expect(json.contains(#"b'x\\xff'"#))
    }

    @Test func aLoneSurrogateEscapeReadsAsTheReplacementCharacter() throws {
        // The JSON reader (JSONSupport) reads "\ud800" as U+FFFD; the reference refuses it.
        let (ours, theirs) = try both("Scalars", .parse(#"{"fString": "\ud800"}"#))
        guard case .converted(_, let json) = ours else {
            Issue.record("refused: \(ours)")
            return
        }
        #expect(json == #"{"fString":"\#u{FFFD}"}"#)
        #expect(theirs.isRefused)
    }
}

/// Where the reference reads JSON that the mapping does not allow, by Python's own conversions.
@Suite(.offPool) struct LenientReferenceTests {
    @Test(arguments: [
        // Python's int(1.5) and int(True) are 1: an enum field reads them as RED.
        #"{"fEnum": 1.5}"#, #"{"fEnum": true}"#,
        // float(True) is 1.0.
        #"{"fDouble": true}"#,
        // The reference only notices a field given twice under the same name.
        #"{"renamed": 5, "custom": 6}"#, #"{"snakeCaseFieldName": 1, "snake_case_field_name": 2}"#,
        // It reads an array as an empty message.
        #"{"fMessage": []}"#, #"[]"#,
    ])
    func readByTheReferenceAndRefusedByUs(json: String) throws {
        let reference = try Reference.require()
        let testCase = Reference.Case(type: "conformance.Scalars", operation: .parse(json))
        #expect(reference.ours(testCase).isRefused)
        #expect(try !reference.outcomes([testCase])[0].isRefused)
    }
}
