import ArgumentParser
import ExplorerApp

/// `apiexplorer` (or `apiexplorer explore`): the interactive explorer.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Opens the interactive explorer (the default command).",
        discussion: "Keys (? lists them in the app too):\n" + Keymap.plainTextWrittenOut)

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
