import ArgumentParser
import Catalog
import CatalogAuthoring
import Foundation

/// `apiexplorer-bench write`: the explorer's `W` (`CatalogUpdate.writing` and its commit) changing
/// one line of one endpoint in the middle of a catalog file of 1,000 and 10,000 endpoints: the
/// change is checked by loading the file as it would be, then written (target ≤ 50 ms at 10,000,
/// and time growing with the file's size, not faster).
struct WriteBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write", abstract: "W (write an endpoint's edits into its catalog file) on catalogs of 1,000 and 10,000 endpoints.")

    @Option(help: "Timed writes per size.")
    var runs = 20

    func run() throws {
        print("W: a one-line change (the path) of an endpoint in the middle of one catalog file, checked and written — milliseconds")
        var medians: [(Int, Double)] = []
        for endpoints in [1_000, 10_000] {
            let stats = try measure(endpoints: endpoints)
            medians.append((endpoints, stats.median))
            print("  \(String(endpoints).padding(toLength: 6, withPad: " ", startingAt: 0)) endpoints, median / max: " + stats.text + "  (target ≤ 50)")
        }
        if let small = medians.first, let large = medians.last, small.1 > 0 {
            print(String(format: "  10× the endpoints: %.1f× the time", large.1 / small.1))
        }
    }

    private func measure(endpoints: Int) throws -> FrameStats {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apiexplorer-bench-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(CatalogBenchmark.catalogFile(index: 0, endpoints: endpoints).utf8).write(to: folder.appendingPathComponent("service-000.yaml"))
        let source = CatalogSource(origin: .option, directory: folder, displayPath: "bench")
        var samples: [Double] = []
        for run in 0..<runs {
            let catalog = CatalogLoader.load(source, trust: .everything)
            guard let service = catalog.services.first, service.endpoints.count >= endpoints else {
                throw ValidationError("the generated catalog did not load: \(catalog.summary)")
            }
            let endpoint = service.endpoints[service.endpoints.count / 2]
            let edits = EndpointEdits(path: "/changed/\(run)")
            let begin = ContinuousClock.now
            try CatalogUpdate.writing(edits, endpoint: endpoint.id, of: service).commit()
            samples.append((ContinuousClock.now - begin).milliseconds)
        }
        return FrameStats(samples)
    }
}
