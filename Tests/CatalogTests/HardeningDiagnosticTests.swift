import CatalogTestSupport
import DispatcherCore
import Foundation
import Testing

@testable import Catalog
@testable import YAMLSupport
import TestTraits

/// Warnings for what passes silently but is rarely meant, and an honest value-cap error that stops
/// the file's diagnostics.
@Suite(.offPool) struct HardeningDiagnosticTests {
    @Test func anUnclosedPlaceholderABaseURLWithASpaceAndARelativePathAreWarned() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1/my api" }
            endpoints:
              one:
                path: items
                headers: { X-Auth: "{{secret.TOKEN" }
            """)
        let found = positions(catalog.diagnostics)
        #expect(found.contains("2:21: warning: the baseURL of environment 'local' holds a space: it is sent as %20; write it percent-encoded if that is meant"), "\(found)")
        #expect(found.contains("5:11: warning: the path of endpoint 'one' does not start with '/': write it from the base URL on, like /pet/{{petId}}"), "\(found)")
        #expect(found.contains("6:24: warning: '{{secret.TOKEN' holds '{{' without a name and a closing '}}': it is sent as written, not filled in"), "\(found)")
        #expect(!catalog.hasErrors)
    }

    @Test func eachWrittenValueWithABraceIsMarkedOnceInDocumentOrder() throws {
        // Keys are not values; an alias repeats its anchor's value without writing it again;
        // the value of a duplicate key is left out of the tree.
        let composition = try YAMLComposer.compose("""
            "{k}": one
            a: &shared "x{y"
            b: [*shared, "{{z}}", plain]
            c: { d: "{{e" }
            c: "{dropped}"
            """, markingScalarsContaining: UInt8(ascii: "{"))
        #expect(composition.markedScalars.map { "\($0.line):\($0.column) \($0.scalar?.text ?? "")" } == ["2:4 x{y", "3:14 {{z}}", "4:9 {{e"])
        #expect(composition.duplicates.map(\.line) == [5])
        #expect(try YAMLComposer.compose("a: \"{x}\"").markedScalars.isEmpty)
    }

    @Test func anUnclosedPlaceholderUsedThroughAnAliasIsWarnedOnceWhereItIsWritten() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              one:
                path: /one
                headers: { X-Auth: &token "{{secret.TOKEN" }
                query: { token: *token }
            """)
        let warnings = positions(catalog.diagnostics).filter { $0.contains("without a name and a closing") }
        #expect(warnings == ["6:24: warning: '{{secret.TOKEN' holds '{{' without a name and a closing '}}': it is sent as written, not filled in"])
    }

    @Test func aPathWithASpaceOrAHashOutsidePlaceholdersIsAnError() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1" }
            endpoints:
              spaced: { path: "/my items" }
              hashed: { path: "/items#top" }
              placeheld: { path: "/orders/{{response.addPet $.id}}/{{ id }}" }
              accented: { path: "/café/naïve" }
              afterClose: { path: "/{{a}}}/b c" }
            """)
        let found = positions(catalog.diagnostics)
        #expect(found == [
            "4:19: error: the path of endpoint 'spaced' holds a space or '#': write them percent-encoded",
            "5:19: error: the path of endpoint 'hashed' holds a space or '#': write them percent-encoded",
            "8:23: error: the path of endpoint 'afterClose' holds a space or '#': write them percent-encoded",
        ], "\(found)")
        #expect(catalog.services.first?.endpoints.map(\.id) == ["placeheld", "accented"])
    }

    @Test func closedPlaceholdersAreNotWarned() throws {
        #expect(!Template("Bearer {{secret.TOKEN}} and {{ spaced }}").hasUnclosedOpening)
        #expect(Template("a {{b}} c {{d").hasUnclosedOpening)
        #expect(Template("{{}}").hasUnclosedOpening)
        #expect(!Template("{ \"json\": {} }").hasUnclosedOpening)
    }

    @Test func theValueCapSaysWhatHappenedAndStopsTheFilesDiagnostics() throws {
        // Ten levels of ten aliases: 10^10 values described in a few lines.
        var lines = ["environments:", "  local: { baseURL: \"http://127.0.0.1:1\" }", "endpoints:", "  one:", "    path: /one",
                     "    stub:", "      body:", "        a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<10 {
            lines.append("        a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        lines += ["  two:", "    path: nothing-after-the-cap", "    unknown: key"]
        let (catalog, _) = try loadCatalog(lines.joined(separator: "\n"))
        let errors = catalog.diagnostics.filter(\.isError)
        #expect(errors.count == 1, "\(positions(catalog.diagnostics))")
        #expect(errors.first?.message.hasSuffix("once its aliases are expanded (aliases repeating parts of it); a catalog needs far fewer") == true)
        #expect(!catalog.diagnostics.contains { $0.message.contains("aliases nested too deeply") })
    }

    @Test func aCatalogFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryCatalog(["small.yaml": "environments: { local: { baseURL: \"http://127.0.0.1:1\" } }\nendpoints: { one: { path: /one } }"])
        let line = "# a catalog grown past reason, line after line of it\n"
        try folder.write("huge.yaml", Data(String(repeating: line, count: CatalogLoader.maximumFileSize / line.utf8.count + 1).utf8))
        let catalog = folder.load()
        let errors = catalog.diagnostics.filter(\.isError)
        #expect(errors.count == 1)
        #expect(errors.first?.line == 1 && errors.first?.file.hasSuffix("huge.yaml") == true)
        #expect(errors.first?.message.contains("the file holds more than the 16777216 bytes (16 MiB) a catalog file may hold") == true, "\(errors)")
        #expect(catalog.service("small") != nil, "the other files still load")
    }
}
