import Foundation
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct SniffingTests {
    @Test func theContentTypeDecidesWhenTheBytesAgree() {
        #expect(document("{\"a\":1}", contentType: "application/json; charset=utf-8").kind == .json)
        #expect(document("{\"a\":1}", contentType: "application/problem+json").kind == .json)
        #expect(document("\"text\"", contentType: "application/json").kind == .json)
        #expect(document("hello", contentType: "text/plain").kind == .text(.plain))
        #expect(document("<a/>", contentType: "application/xml").kind == .text(.xml))
        #expect(document("<a/>", contentType: "application/atom+xml").kind == .text(.xml))
        #expect(document("<p>hi</p>", contentType: "text/html").kind == .text(.html))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
        #expect(BodyDocument(data: png, contentType: "image/png").kind == .binary)
        #expect(BodyDocument(data: png, contentType: "image/png").notices.isEmpty)
    }

    @Test func sniffsWhenTheHeaderIsMissing() {
        #expect(document("  \n[1,2]", contentType: nil).kind == .json)
        #expect(document("\u{FEFF}{\"a\":1}", contentType: nil).kind == .json)
        #expect(document("<?xml version=\"1.0\"?><a/>", contentType: nil).kind == .text(.xml))
        #expect(document("<!DOCTYPE html><html></html>", contentType: nil).kind == .text(.html))
        #expect(document("  <html><body/></html>", contentType: nil).kind == .text(.html))
        #expect(document("just words", contentType: nil).kind == .text(.plain))
        #expect(document("[INFO] not json", contentType: nil).kind == .text(.plain))
        #expect(document("[INFO] not json", contentType: nil).notices.isEmpty)
        #expect(BodyDocument(data: Data([1, 2, 3, 0, 5]), contentType: nil).kind == .binary)
        #expect(BodyDocument(data: Data((0..<200).map { UInt8($0 % 20 + 1) }), contentType: nil).kind == .binary)
    }

    @Test func sniffingOverridesAHeaderThatLies() {
        let json = document("{\"a\":1}", contentType: "text/html")
        #expect(json.kind == .json)
        #expect(json.notices.map(\.kind) == [.contentTypeMismatch])
        #expect(json.notices.first?.message == "Content-Type is text/html, but the body is JSON: shown as JSON.")
        let binary = BodyDocument(data: Data([0x7B, 0, 1, 2]), contentType: "application/json")
        #expect(binary.kind == .binary)
        #expect(binary.notices.map(\.kind) == [.contentTypeMismatch])
        let text = document("plain words", contentType: "image/png")
        #expect(text.kind == .text(.plain))
        #expect(text.notices.map(\.kind) == [.contentTypeMismatch])
        let html = document("<!DOCTYPE html><p>502 Bad Gateway</p>", contentType: "application/json")
        #expect(html.kind == .text(.html))
        #expect(html.notices.map(\.kind) == [.invalidJSON])
    }

    @Test func invalidJSONLabelledJSONFallsBackToTextSayingWhere() {
        let body = document("{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}", contentType: "application/json")
        #expect(body.kind == .text(.plain))
        let notice = body.notices.first
        #expect(notice?.kind == .invalidJSON)
        #expect(notice?.line == 3 && notice?.column == 14)
        #expect(notice?.message == "Not valid JSON at 3:14: expected a value, not ']' (a trailing comma?). Shown as text.")
        #expect(screen(body, wideState()) == "{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}")
        let truncated = document("{\"a\": [1, 2", contentType: "application/json")
        #expect(truncated.notices.first?.message == "Not valid JSON at 1:12: unexpected end of input. Shown as text.")
        let trailing = document("{} x", contentType: "application/json")
        #expect(trailing.notices.first?.message == "Not valid JSON at 1:4: unexpected text after the JSON value. Shown as text.")
    }

    @Test func anEmptyBodyIsAnEmptyTextWithANotice() {
        let body = BodyDocument(data: Data(), contentType: "application/json")
        #expect(body.kind == .text(.plain))
        #expect(body.lineCount == 1)
        #expect(body.notices.map(\.kind) == [.emptyBody])
        #expect(screen(body, wideState()) == "")
    }
}
