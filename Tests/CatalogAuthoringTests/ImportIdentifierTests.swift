import CatalogAuthoring
import Foundation
import Testing
import TestTraits

/// Imported ids are unique and say where they come from: a name repeated in several folders is
/// qualified by its folder (`teamsCreate`), a path without an operationId by its parameters
/// (`getUsersById`), rather than numbered (`create2 … create5`).
@Suite(.offPool) struct ImportIdentifierTests {
    static func request(_ name: String, _ method: String, _ path: String) -> String {
        #"{"name": "\#(name)", "request": {"method": "\#(method)", "url": "https://api.example.com\#(path)"}}"#
    }

    @Test func repeatedNamesInFoldersAreQualifiedByTheirFolders() throws {
        let collection = """
            {"info": {"name": "Acme", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
               {"name": "Users", "item": [\(Self.request("Create", "POST", "/users")), \(Self.request("List", "GET", "/users"))]},
               {"name": "Teams", "item": [\(Self.request("Create", "POST", "/teams")), \(Self.request("List", "GET", "/teams"))]},
               {"name": "Admin", "item": [{"name": "Users", "item": [\(Self.request("Create", "POST", "/admin/users"))]}]},
               {"name": "Admin", "item": [{"name": "Teams", "item": [\(Self.request("Create", "POST", "/admin/teams"))]}]}
             ]}
            """
        let result = try PostmanImporter.catalog(collection: Data(collection.utf8), documentName: "acme.json")
        let endpoints = try #require(result.drafts.first).endpoints
        #expect(endpoints.map(\.id) == ["create", "list", "teamsCreate", "teamsList", "usersCreate", "adminTeamsCreate"])
        #expect(endpoints.map(\.group) == ["users", "users", "teams", "teams", "users2", "teams2"])
    }

    @Test func pathsWithoutOperationIDsAreQualifiedByTheirParameters() throws {
        let document = #"""
            {"openapi": "3.0.3", "info": {"title": "Users", "version": "1"},
             "paths": {"/users": {"get": {"responses": {"200": {"description": "ok"}}}},
                       "/users/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                                               "responses": {"200": {"description": "ok"}}}}}}
            """#
        let draft = try OpenAPIImporter.draft(from: Data(document.utf8), documentName: "users.json")
        #expect(draft.endpoints.map(\.id) == ["getUsers", "getUsersById"])
    }
}
