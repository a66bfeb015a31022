import Foundation
import Testing
import TextSupport
import TestTraits

/// Patterns from documents someone else wrote are searched with bounded work.
@Suite(.offPool) struct BoundedRegexTests {
    func search(_ pattern: String, _ text: String) throws -> BoundedRegex.Outcome {
        try BoundedRegex(pattern).search(text)
    }

    @Test func commonSyntaxMatchesAsARegexEngineDoes() throws {
        #expect(try search("^[a-z]+$", "rex") == .found)
        #expect(try search("^[a-z]+$", "Rex") == .notFound)
        #expect(try search("json", "application/json; charset=utf-8") == .found)
        #expect(try search("^(available|pending)$", "pending") == .found)
        #expect(try search("^(available|pending)$", "sold") == .notFound)
        #expect(try search("^\\d{3}-\\d{2,4}$", "123-4567") == .found)
        #expect(try search("^\\d{3}-\\d{2,4}$", "123-45678") == .notFound)
        #expect(try search("\\bcat\\b", "a cat sat") == .found)
        #expect(try search("\\bcat\\b", "concatenate") == .notFound)
        #expect(try search("^a.*?z$", "abcz") == .found)
        #expect(try search("^[^\\s]+$", "no space") == .notFound)
        #expect(try search("^\\x41\\u00e9$", "Aé") == .found)
        #expect(try search("a{,2}", "a{,2}") == .found)  // not a count: literal braces
        #expect(try search("^$", "") == .found)
    }

    @Test func catastrophicBacktrackingPatternsEndQuickly() throws {
        let text = String(repeating: "a", count: 40) + "b"
        let clock = ContinuousClock()
        let started = clock.now
        for pattern in ["^(a+)+$", "^(a*)*$", "^(a|a)*$", "^(a|aa)+$", "(a+)+b$c"] {
            #expect(try search(pattern, text) == .notFound, "\(pattern)")
        }
        // Swift's Regex takes hours on the first; a loaded machine takes well under this.
        #expect(clock.now - started < .seconds(20))
    }

    @Test func workIsBoundedByTheBudget() throws {
        let regex = try BoundedRegex("(a|b|c|d|e|f|g|h)*x", budget: 1_000)
        #expect(regex.search(String(repeating: "abcdefgh", count: 1_000)) == .tooCostly)
        #expect(throws: BoundedRegex.Refusal.self) { try BoundedRegex("(a{1000}){1000}") }
    }

    @Test func otherSyntaxGoesToSwiftRegexOnlyWithoutNestedRepetition() throws {
        #expect(try search("^(?=a)a$", "a") == .found)  // lookahead: Swift's Regex
        #expect(try search("\\p{L}+", "été") == .found)
        #expect(throws: BoundedRegex.Refusal.tooCostly("a repeated group holds a repetition of its own, and it uses syntax only a backtracking engine reads")) {
            try BoundedRegex("^(?=a)(a+)+$")
        }
        #expect(throws: BoundedRegex.Refusal.self) { try BoundedRegex("(unclosed") }
    }
}
