import TerminalKit

/// The launch: where the explorer opens once the catalogs are read (`--env`, `--live`), the keys
/// and clicks that came meanwhile, the launch index drawn before them, and whether the loading
/// screen may show. The root installs the catalogs; this slice says what waits for them.
package struct LaunchState: Sendable {
    /// Where the explorer opens once the catalogs are loaded; nil once applied (or for a state made
    /// with its catalogs).
    package fileprivate(set) var options: LaunchOptions?
    /// Keys and clicks that came while the catalogs were loading, handled once they are there.
    package fileprivate(set) var heldEvents: [TerminalEvent] = []
    /// Set when the grace after launch (`AppState.loadingScreenGrace`) ends before the catalogs are read.
    package fileprivate(set) var loadingScreenDue = false
    /// Set while the launch index's catalogs are drawn and the full ones are still being read:
    /// keys wait for them as during any load.
    package fileprivate(set) var showsPreview = false
    /// How many catalog files the launch's load has read, while it reads them.
    package fileprivate(set) var progress: CatalogLoadCount?
}

/// Catalog files read so far of those a load reads.
package struct CatalogLoadCount: Sendable, Equatable {
    package var read: Int
    package var total: Int

    package init(read: Int, total: Int) {
        self.read = read
        self.total = total
    }
}

/// Where the explorer opens: `--env` and `--live`.
package struct LaunchOptions: Sendable, Hashable {
    /// An environment name, or `service/environment`; nil for the first environment.
    package var environment: String?
    /// Start in live mode.
    package var live: Bool
    /// The config file's keys and theme (applied from the first frame).
    package var config: ExplorerConfig

    /// Makes launch options.
    package init(environment: String? = nil, live: Bool = false, config: ExplorerConfig = .defaults) {
        self.environment = environment
        self.live = live
        self.config = config
    }
}

/// What happens to the launch.
package enum LaunchAction: Sendable {
    /// The explorer starts with these options; the catalogs are being read.
    case started(LaunchOptions)
    /// A key or click that came while the catalogs load: handled once they are there.
    case hold(TerminalEvent)
    /// The grace after launch ended with the catalogs still being read: the loading screen may be drawn.
    case loadingScreenDue
    /// The launch index's catalogs are drawn while the full ones are read.
    case previewShown
    /// How far the launch's catalog load has come: catalog files read of `total`.
    case loadProgressed(read: Int, total: Int)
    /// The catalogs are installed: the options are applied and the held events handled (by the root).
    case catalogsLoaded
}

enum LaunchFeature: AppFeature {
    static func reduce(_ state: inout LaunchState, _ action: LaunchAction, _ shell: inout AppShell, _ context: Void) -> [AppEffect] {
        switch action {
        case .started(let options):
            state.options = options
        case .hold(let event):
            state.heldEvents.append(event)
        case .loadingScreenDue:
            state.loadingScreenDue = true
        case .previewShown:
            state.showsPreview = true
        case .loadProgressed(let read, let total):
            // A count arriving after the catalogs (the reports race the load's end) is dropped.
            if state.options != nil { state.progress = CatalogLoadCount(read: read, total: total) }
        case .catalogsLoaded:
            state.options = nil
            state.heldEvents = []
            state.showsPreview = false
            state.progress = nil
        }
        return []
    }
}

extension AppState {
    /// Whether the catalogs are still being read at launch.
    package var isLoadingCatalog: Bool { launch.options != nil }

    /// Whether a launch index's catalogs are drawn while the full ones are read.
    package var showsCatalogPreview: Bool { launch.showsPreview }

    /// Keys and clicks held until the catalogs are there.
    package var pendingEvents: [TerminalEvent] { launch.heldEvents }

    /// Whether the grace after launch ended before the catalogs were read.
    package var loadingScreenDue: Bool { launch.loadingScreenDue }

    /// How many catalog files the launch's load has read, while it reads them.
    package var catalogLoadProgress: CatalogLoadCount? { launch.progress }

    /// What the panes show while the catalogs load: `Loading 3412/10000 catalog files` (fits the sidebar).
    package var loadingText: String {
        guard let progress = launch.progress, progress.total > 0 else { return "Loading catalogs…" }
        return "Loading \(progress.read)/\(progress.total) catalog files"
    }

    /// How long the first frame waits for the catalogs: catalogs read sooner are the first thing
    /// drawn, with no loading screen flashing before them (and drawing one would compete with the
    /// reading for the CPU); slower ones show the loading screen after it.
    package static let loadingScreenGrace = Duration.milliseconds(50)

    /// Whether frames are held back: the catalogs are being read, none is previewed and the grace has not ended.
    package var holdsFrames: Bool { isLoadingCatalog && !launch.loadingScreenDue && !launch.showsPreview }

    /// Whether anything asked for at launch (catalogs, history, drift results) has not arrived yet.
    package var isLoading: Bool { isLoadingCatalog || !pendingLoads.isEmpty }
}
