import FoundationEssentials
import JSONSupport
import Testing

@testable import HTTPEcho
import TestTraits

/// The multipart reader the echo uses (RFC 7578): parts, their names, filenames and types, and
/// what it leaves out of a malformed body.
@Suite(.offPool) struct MultipartReaderTests {
    static func body(_ text: String) -> Data { Data(text.utf8) }

    @Test func readsFieldsAndFilesWithTheirHeaders() {
        let parts = RequestEcho.multipartParts(
            Self.body(
                "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n"
                    + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u{1}\u{2}\u{3}\r\n"
                    + "--XyZ--\r\n"), boundary: "XyZ")
        #expect(parts.map(\.name) == ["title", "photo"])
        #expect(parts[0].filename == nil && parts[0].contentType == nil && parts[0].data == Self.body("Holiday"))
        #expect(parts[1].filename == "beach.jpg" && parts[1].contentType == "image/jpeg" && parts[1].data == Data([1, 2, 3]))
    }

    @Test func aValueKeepsItsOwnLineBreaksAndMayBeEmpty() {
        let parts = RequestEcho.multipartParts(
            Self.body(
                "--b\r\nContent-Disposition: form-data; name=lines\r\n\r\none\r\ntwo\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--b--"),
            boundary: "b")
        #expect(parts.map(\.name) == ["lines", "empty"])
        #expect(parts[0].data == Self.body("one\r\ntwo\r\n"))
        #expect(parts[1].data.isEmpty)
    }

    @Test func headersAreReadWhateverTheirCase() {
        let parts = RequestEcho.multipartParts(
            Self.body("--b\r\ncontent-disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nCONTENT-TYPE:   text/plain  \r\n\r\nx\r\n--b--"),
            boundary: "b")
        #expect(parts.count == 1)
        #expect(parts.first?.filename == "a.txt")
        #expect(parts.first?.contentType == "text/plain")
    }

    @Test func malformedPartsAreLeftOutNotGuessed() {
        // No name; no blank line after the headers; a body without a closing delimiter; a wrong boundary.
        #expect(RequestEcho.multipartParts(Self.body("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--"), boundary: "b").isEmpty)
        #expect(RequestEcho.multipartParts(Self.body("--b\r\nContent-Disposition: form-data; name=a\r\nx\r\n--b--"), boundary: "b").isEmpty)
        #expect(RequestEcho.multipartParts(Self.body("--b\r\nContent-Disposition: form-data; name=a\r\n\r\nx"), boundary: "b").isEmpty)
        #expect(RequestEcho.multipartParts(Self.body("--b\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--b--"), boundary: "c").isEmpty)
        #expect(RequestEcho.multipartParts(Data(), boundary: "b").isEmpty)
        // A delimiter at the very end, a boundary longer than the body.
        #expect(RequestEcho.multipartParts(Self.body("--b"), boundary: "b").isEmpty)
        #expect(RequestEcho.multipartParts(Self.body("--b"), boundary: String(repeating: "b", count: 100)).isEmpty)
    }

    /// Found by FuzzMultipart: the blank line after the headers overlaps the CRLF before the next
    /// delimiter; the part's body is empty, not a reversed range (a crash).
    @Test func aBlankLineEndingAtTheDelimiterIsAnEmptyBody() {
        let parts = RequestEcho.multipartParts(Self.body("--b\r\nContent-Disposition: form-data; name=x\r\n\r\n--b--"), boundary: "b")
        #expect(parts.map(\.name) == ["x"])
        #expect(parts.first?.data.isEmpty == true)
        let found = Data([0x62, 0x0a, 0x2d, 0x2d, 0x62, 0x0d, 0x0a] + Array("Content-Disposition: form-data; name=x\rntent-Disposit\n\r\n\r\n--b--".utf8))
        #expect(RequestEcho.multipartParts(found, boundary: "b").map(\.data) == [Data()])
    }

    @Test func theBoundaryIsReadQuotedOrNot() {
        #expect(RequestEcho.boundary(of: "multipart/form-data; boundary=abc") == "abc")
        #expect(RequestEcho.boundary(of: "multipart/form-data; charset=utf-8; Boundary=\"a b\"") == "a b")
        #expect(RequestEcho.boundary(of: "multipart/form-data; boundary=\"xyz\"") == "xyz")
        #expect(RequestEcho.boundary(of: "multipart/form-data; boundary=") == nil)
        #expect(RequestEcho.boundary(of: "multipart/form-data") == nil)
        #expect(RequestEcho.boundary(of: nil) == nil)
    }

    @Test func theEchoListsFieldsAndFilesNeverTheFilesBytes() throws {
        let body = Self.body(
            "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\"\r\n\r\nSECRET-BYTES\r\n--b--\r\n")
        let echo = RequestEcho.body(
            method: "POST", uri: "/up?x=1", headers: [("Content-Type", "multipart/form-data; boundary=b")], body: body, truncated: false)
        let json = try JSONValue.parse(echo)
        #expect(json["form"]?["title"] == .string("Holiday"))
        #expect(json["files"]?["photo"]?["filename"] == .string("beach.jpg"))
        #expect(json["files"]?["photo"]?["contentType"] == .string("application/octet-stream"))
        #expect(json["files"]?["photo"]?["size"] == .integer(12))
        #expect(!String(decoding: echo, as: UTF8.self).contains("SECRET-BYTES"))
    }
}
