import ArgumentParser
import ExplorerApp
import ExplorerRuntime
import SystemSupport

/// `apiexplorer` (or `apiexplorer explore`): the interactive explorer.
struct ExploreCommand: AsyncParsableCommand {
    /// The keys listed are those in effect: the config file's rebindings, else the defaults.
    static var configuration: CommandConfiguration {
        let config = ExplorerConfigFile.read(environment: ProcessEnvironment.variables)
        let keys = config.bindings == Keymap.bindings ? Keymap.plainTextWrittenOut : Keymap.plainText(of: config.bindings)
        return CommandConfiguration(
            commandName: "explore",
            abstract: "Opens the interactive explorer (the default command).",
            discussion: "Keys (? lists them in the app too):\n" + keys)
    }

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    @OptionGroup var start: StartingPoint

    @Flag(help: InProcessMock.help)
    var mock = false

    @Flag(help: "Leave the mouse to the terminal (selection, scrolling).")
    var noMouse = false

    /// What was asked for, as plain values.
    var launch: ExplorerLaunch {
        ExplorerLaunch(
            catalog: catalogOptions.catalog, trust: catalogOptions.trust, maximumBodySize: bodyLimit.maximumBodySize, startingPoint: start.launchOptions,
            mock: mock, noMouse: noMouse)
    }

    func run() async throws {
        try await launch.run()
    }
}
