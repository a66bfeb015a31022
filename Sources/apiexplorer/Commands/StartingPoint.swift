import ArgumentParser
import ExplorerApp

/// `--env` and `--live`: where the explorer (or a snapshot of it) starts.
struct StartingPoint: ParsableArguments {
    @Option(help: ArgumentHelp("Start in this environment (NAME or SERVICE/NAME).", valueName: "NAME"))
    var env: String?

    @Flag(help: "Start in live mode (real HTTP) instead of stub mode.")
    var live = false

    /// Where the explorer opens.
    var launchOptions: LaunchOptions { LaunchOptions(environment: env, live: live) }
}
