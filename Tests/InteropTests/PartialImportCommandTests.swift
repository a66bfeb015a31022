import Foundation
import TestSupport
import TestTraits
import Testing

extension BinaryTests {
    /// The command line's side of partial imports: the exit status, the notes on standard error and in IMPORT-NOTES.md.
    @Suite struct PartialImportCommandTests {
        @Test func partialImportExitsThreeAndKeepsTheNotes() async throws {
            let state = try TemporaryDirectory()
            let har = try #require(Bundle.module.url(forResource: "Resources/regressions/repeated-headers.har", withExtension: nil))
            let result = try await CLI.run(["import", "har", har.path, "--out", "catalog"], state: state)
            #expect(result.status == 3, "\(result.errors)")
            #expect(result.errors.contains("left out: repeated-headers.har /log/entries/2: a CONNECT request was left out"))
            #expect(result.errors.contains("repaired: repeated-headers.har /log/entries/0/request/headers: the repeated header X-Feature was joined"))
            let notes = try #require(state.read("catalog/IMPORT-NOTES.md"))
            #expect(notes.contains("## Left out (1)") && notes.contains("`repeated-headers.har /log/entries/2`"))
            let validate = try await CLI.run(["validate", "catalog"], state: state)
            #expect(validate.status == 0, "\(validate.output)")
        }

        @Test func completeImportExitsZeroAndNothingWrittenIsAnError() async throws {
            let state = try TemporaryDirectory()
            let http = try #require(Bundle.module.url(forResource: "Resources/regressions/origin-form.http", withExtension: nil))
            let complete = try await CLI.run(["import", "http", http.path, "--out", "catalog"], state: state)
            #expect(complete.status == 0, "\(complete.errors)")
            try state.write("nothing.http", "GET /relative-without-host\n")
            let nothing = try await CLI.run(["import", "http", "nothing.http", "--out", "other"], state: state)
            #expect(nothing.status == 2)
            #expect(nothing.errors.contains("nothing in the document could be imported"))
            #expect(nothing.errors.contains("nothing.http:1"))
            #expect(!state.exists("other/nothing.yaml"))
        }
    }
}
