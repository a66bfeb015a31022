import ArgumentParser

/// `apiexplorer-bench`: the performance figures README reports. Always run a release build.
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apiexplorer-bench",
        abstract: "Measures apiexplorer's speed. Run with `swift run -c release apiexplorer-bench <suite>`.",
        subcommands: BenchmarkSuites.all
    )
}
