import ArgumentParser

/// Every benchmark suite, one subcommand each (one file per suite: `<Suite>Benchmark.swift`).
enum BenchmarkSuites {
    static let all: [any ParsableCommand.Type] = [
        CoreBenchmark.self,
        BodyViewerBenchmark.self,
        BodyTabBenchmark.self,
        EditingBenchmark.self,
        LiveBenchmark.self,
        CatalogBenchmark.self,
        TUIBenchmark.self,
        CallBenchmark.self,
        ImportBenchmark.self,
        ContractBenchmark.self,
        StreamBenchmark.self,
        WebSocketBenchmark.self,
        WriteBenchmark.self,
        RunnerBenchmark.self,
        BrowseBenchmark.self,
        GRPCBenchmark.self,
        ProtoJSONBenchmark.self,
        TimingBenchmark.self,
    ]
}
