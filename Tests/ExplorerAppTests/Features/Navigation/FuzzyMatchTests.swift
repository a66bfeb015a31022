import Catalog
import DispatcherCore
import ExplorerApp
import Testing
import TestTraits

/// The ranking shared by the `/` filter and the finder (Features/Navigation/FuzzyMatch.swift).
@Suite(.offPool) struct FuzzyMatchTests {
    @Test func kindsRankExactThenPrefixThenWordStartThenSubsequence() throws {
        let exact = try #require(FuzzyMatch.match("chat", in: "Chat"))
        let prefix = try #require(FuzzyMatch.match("chat", in: "chatCompletions"))
        let wordStart = try #require(FuzzyMatch.match("chat", in: "/v1/chat/completions"))
        let camel = try #require(FuzzyMatch.match("comp", in: "createChatCompletion"))
        let acronym = try #require(FuzzyMatch.match("gur", in: "getUserRepos"))
        let subsequence = try #require(FuzzyMatch.match("chat", in: "PATCH /pATch"))
        #expect(exact.kind == .exact)
        #expect(prefix.kind == .prefix)
        #expect(wordStart.kind == .wordStart)
        #expect(camel.kind == .wordStart)
        #expect(acronym.kind == .wordStart)
        #expect(acronym.positions == [0, 3, 7])
        #expect(subsequence.kind == .subsequence)
        #expect([subsequence, acronym, prefix, exact].sorted(by: >).map(\.kind) == [.exact, .prefix, .wordStart, .subsequence])
        #expect(FuzzyMatch.match("xyz", in: "GET /pet") == nil)
        #expect(FuzzyMatch.matches("gpt", in: "GET /pet"))
    }

    @Test func positionsAreWhereTheQueryMatched() throws {
        #expect(try #require(FuzzyMatch.match("items", in: "/shop/items/{{id}}")).positions == Array(6..<11))
        #expect(try #require(FuzzyMatch.match("gpt", in: "GET /pet")).positions == [0, 5, 7])
    }

    /// The example: `/chat` then Enter sent `PATCH /patch`, the chat endpoint third.
    @Test func theChatEndpointOutranksPatch() {
        let endpoints = [
            CatalogEndpoint(id: "patch", serviceID: "echo", title: "Echo a PATCH", method: .patch, path: "/patch"),
            CatalogEndpoint(id: "catFacts", serviceID: "echo", title: "Cat facts", method: .get, path: "/cat/facts/{{h}}"),
            CatalogEndpoint(id: "createChatCompletion", serviceID: "echo", title: "Chat completion", method: .post, path: "/v1/chat/completions"),
        ]
        let ranked = EndpointTree.ranked(endpoints, query: "chat")
        #expect(ranked.first.map { endpoints[$0.index].id } == "createChatCompletion")
        #expect(ranked.first?.match.kind == .prefix)  // its title starts with the query
    }

    @Test func exactIdBeatsPrefixAndRecentWinsTies() {
        let endpoints = [
            CatalogEndpoint(id: "users", serviceID: "s", method: .get, path: "/users"),
            CatalogEndpoint(id: "userRepos", serviceID: "s", method: .get, path: "/users/{{u}}/repos"),
            CatalogEndpoint(id: "userKeys", serviceID: "s", method: .get, path: "/users/{{u}}/keys"),
        ]
        #expect(EndpointTree.ranked(endpoints, query: "users").map(\.index) == [0, 1, 2])
        // userRepos and userKeys tie (prefix of id): the one sent last comes first.
        #expect(EndpointTree.ranked(endpoints, query: "user", recency: ["userKeys": 0]).map(\.index).prefix(2) == [2, 0])
        // Every word must match some part.
        #expect(EndpointTree.ranked(endpoints, query: "get keys").map(\.index) == [2])
    }
}
