import Foundation
import Testing

@testable import CatalogAuthoring
import TestTraits

/// Editing one entry of a catalog file leaves every other byte alone.
@Suite(.offPool) struct CatalogTextEditorTests {
    static let catalog = """
        service: demo   # a comment
        environments:
          local: { baseURL: http://127.0.0.1:1 }
        endpoints:
            ping:
                path: /ping      # keep me
                stub:
                    body: |
                        pong
                        pong

            # between endpoints
            flow: { path: /flow }
            withFlowExamples:
                path: /x
                examples: { a: { status: 404 } }
        """

    @Test func replacingTheStubKeepsCommentsAndIndentation() throws {
        var editor = CatalogTextEditor(Self.catalog)
        try editor.setExample(endpoint: "ping", example: nil, body: ["status: 201", "bodyFile: f.json"], replace: true)
        #expect(editor.text == Self.catalog.replacingOccurrences(
            of: "        stub:\n            body: |\n                pong\n                pong\n",
            with: "        stub:\n            status: 201\n            bodyFile: f.json\n"))
    }

    @Test func addingAnExampleUsesTheFilesIndentation() throws {
        var editor = CatalogTextEditor(Self.catalog)
        try editor.setExample(endpoint: "ping", example: "slow", body: ["status: 200"], replace: false)
        #expect(editor.text.contains("                pong\n        examples:\n            slow:\n                status: 200\n\n    # between"))
        try editor.setExample(endpoint: "ping", example: "other", body: ["status: 500"], replace: false)
        #expect(editor.text.contains("                status: 200\n            other:\n                status: 500\n"))
    }

    @Test func flowStyleIsRefusedNotRewritten() {
        var editor = CatalogTextEditor(Self.catalog)
        #expect(throws: AuthoringError.self) { try editor.setExample(endpoint: "flow", example: nil, body: ["status: 200"], replace: true) }
        #expect(throws: AuthoringError.self) { try editor.setExample(endpoint: "withFlowExamples", example: "a", body: ["status: 200"], replace: true) }
        #expect(throws: AuthoringError.self) { try editor.setExample(endpoint: "missing", example: nil, body: ["status: 200"], replace: true) }
        #expect(editor.text == Self.catalog)
    }

    @Test func addingAnEndpointKeepsCRLFLineEndings() throws {
        let text = "service: demo\r\nendpoints:\r\n  a:\r\n    path: /a\r\n"
        var editor = CatalogTextEditor(text)
        try editor.addEndpoint("b", body: ["path: /b"])
        #expect(editor.text == "service: demo\r\nendpoints:\r\n  a:\r\n    path: /a\r\n  b:\r\n    path: /b\r\n")
        var empty = CatalogTextEditor("service: demo\n")
        try empty.addEndpoint("b", body: ["path: /b"])
        #expect(empty.text == "service: demo\nendpoints:\n  b:\n    path: /b\n")
    }

    @Test func scalarsAreQuotedOnlyWhenNeeded() {
        #expect(YAMLText.scalar("fixtures/a.json") == "fixtures/a.json")
        #expect(YAMLText.scalar("{{id}}") == #""{{id}}""#)
        #expect(YAMLText.scalar("yes") == #""yes""#)
        #expect(YAMLText.scalar("42") == #""42""#)
        #expect(YAMLText.scalar("a: b") == #""a: b""#)
        #expect(YAMLText.scalar("") == #""""#)
        #expect(YAMLText.flow(["a": [1, "x", nil, true]]) == #"{ "a": [1, "x", null, true] }"#)
    }
}
