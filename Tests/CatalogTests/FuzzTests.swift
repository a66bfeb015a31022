import CatalogTestSupport
import Foundation
import TestSupport
import Testing

@testable import Catalog
import TestSupport
import TestTraits

/// No input crashes or hangs the loader: truncated, garbled and hostile files only yield diagnostics.
/// The long loops yield now and then: a synchronous loop would hold one of the few cooperative
/// threads for seconds and starve the timing-sensitive network tests running beside it.
@Suite(.offPool) struct FuzzTests {
    static let fileSystem = BundledCatalogs.fileSystem
    /// The bundled files on disk too, so the disk's path handling is fuzzed as well.
    static let disk: DiskFileSystem = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-fuzz-\(UUID().uuidString)")
        for (path, data) in fileSystem.files {
            let url = root.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? data.write(to: url)
        }
        return DiskFileSystem(root: root)
    }()

    /// Parses bytes as a catalog file, from memory and from disk; returns the diagnostics (the
    /// test fails by crashing otherwise).
    @discardableResult
    func parse(_ data: Data) -> [Diagnostic] {
        let onDisk = CatalogLoader.parse(data: data, fileName: "fuzz.yaml", file: "fuzz.yaml", directory: Self.disk.root, fileSystem: Self.disk)
        let inMemory = CatalogLoader.parse(data: data, fileName: "fuzz.yaml", file: "fuzz.yaml", directory: nil, fileSystem: Self.fileSystem)
        #expect(onDisk.diagnostics.count == inMemory.diagnostics.count || onDisk.diagnostics.contains { $0.message.contains("certificate") })
        return inMemory.diagnostics
    }

    var seeds: [Data] {
        Self.fileSystem.files.filter { $0.key.hasSuffix(".yaml") }.sorted { $0.key < $1.key }.map(\.value)
            + [Data(ConceptParsingTests.catalog.utf8), Data(SessionCatalog.text.utf8)]
    }

    @Test func everyTruncationIsHandled() async {
        for seed in seeds {
            var length = 0
            while length < seed.count {
                await Task.yield()
                let diagnostics = parse(seed.prefix(length))
                #expect(diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 })
                length += 11  // every 11th prefix: cuts land in every kind of token across the seeds
            }
        }
    }

    @Test func garbledFilesAreHandled() async {
        var random = SeededGenerator(state: 42)
        let alphabet = Array(":-{}[],\"'\n \t&*!#|>%@`?\\$0{{}}yes~\u{0}\u{FEFF}é".utf8)
        for seed in seeds {
            for _ in 0..<120 {
                await Task.yield()
                var bytes = [UInt8](seed)
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
                    }
                }
                parse(Data(bytes))
            }
        }
    }

    @Test func randomBytesAreHandled() async {
        var random = SeededGenerator(state: 7)
        for _ in 0..<250 {
            await Task.yield()
            let bytes = (0..<Int.random(in: 0...400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            parse(Data(bytes))
        }
    }

    @Test func aliasBombsStopAtTheBudget() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let text = """
            environments:
              local: { baseURL: "http://h" }
            bombs:
            \(lines.map { "  " + $0 }.joined(separator: "\n"))
            endpoints:
              boom: { path: /boom, body: *a9 }
            """
        let started = threadCPUTime()
        let diagnostics = parse(Data(text.replacingOccurrences(of: "bombs:", with: "variables:").utf8))
        #expect(threadCPUTime() - started < .seconds(20), "CPU time: the same on a busy machine")
        #expect(diagnostics.contains { $0.isError })
    }

    @Test func deepNestingIsRefusedByTheParser() {
        let deep = "environments: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let diagnostics = parse(Data(deep.utf8))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("nesting") == true)
    }
}
