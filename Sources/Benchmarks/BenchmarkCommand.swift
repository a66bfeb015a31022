import ArgumentParser

/// `apiexplorer-bench`: the performance figures README reports. Always run a release build.
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apiexplorer-bench",
        abstract: "Measures apiexplorer's speed. Build with `scripts/build-release apiexplorer apiexplorer-bench`, then run `apiexplorer-bench <suite>` from the folder it prints.",
        subcommands: BenchmarkSuites.all
    )
}
