import Catalog
import Dispatch
import DispatcherCore
import FoundationEssentials
import Sessions
import StateStore
import TextSupport

/// Everything the explorer's effects reach outside the app: where catalogs, secrets, history and
/// drift results, drafts and run-time values come from, how live requests are sent, the clock requests are timed with, and the
/// process environment (`$PAGER`, `$EDITOR`).
package struct ExplorerServices: Sendable {
    /// Reads the catalogs and their secrets (called once per `.loadCatalog` effect, off the UI thread).
    package var loadCatalog: @Sendable () -> (CatalogSet, SecretStore)
    /// The same, counting the files read in a progress (shown while loading) and stopping early when
    /// it is cancelled (the person quits); used instead of `loadCatalog` when set.
    package var loadCatalogCounting: (@Sendable (CatalogLoadProgress) -> (CatalogSet, SecretStore))?
    /// Reads the catalogs again after files changed (the last catalogs, the changed catalog files
    /// or nil for all); nil: the catalogs are not watched.
    package var reloadCatalog: (@Sendable (CatalogSet, Set<String>?) -> (CatalogSet, SecretStore))?
    /// Whether the catalog folder is watched (with `reloadCatalog` set). False for a still picture
    /// such as `apiexplorer snapshot`, which reads again only after trust is given.
    package var watchesCatalogs = true
    /// Sends live requests; nil leaves live mode failing with a clear message.
    package var transport: (any Transport)?
    /// Where sent requests are kept and earlier ones read; nil keeps no history.
    package var history: HistoryStore?
    /// Where drift checks are read; nil shows no drift badges.
    package var drift: DriftStore?
    /// Times requests and paces delayed fixtures (a `SteppingClock` for reproducible output).
    package var clock: DispatchClock
    /// The process environment, for `$PAGER` and `$EDITOR`.
    package var environment: [String: String]
    /// Plugins run after the activity and logger plugins.
    package var extraPlugins: [any Plugin]
    /// Where drafts are kept between runs; nil keeps none.
    package var drafts: EnvironmentStateFile<[String: EndpointEdits]>?
    /// Where run-time values (never secrets) are kept between runs; nil keeps none.
    package var values: EnvironmentStateFile<[String: String]>?
    /// Where values captured from responses are kept between runs; nil keeps none.
    package var captured: EnvironmentStateFile<CapturedValues>?
    /// The launch index of the catalog folder: drawn before the catalogs are read, and written after
    /// a load it did not match; nil draws nothing before the catalogs.
    package var launchIndex: LaunchIndexFile?
    /// Where the sidebar's width is kept between runs; nil keeps none.
    package var panes: PanesFile?
    /// Where live OAuth 2.0 tokens of catalogs that say `persist: true` are kept; nil keeps none.
    package var tokens: (any TokenPersistence)?
    /// Where live cookie jars of catalogs that say `cookies: { persist: true }` are kept; nil keeps none.
    package var cookies: (any CookiePersistence)?
    /// Where the trust the person gives a catalog is kept (asked before an untrusted catalog reaches
    /// outside itself); nil: trust is not given in the explorer.
    package var trust: (any TrustPersistence)?
    /// Whether the activity spinner turns (its ticks come from a real-time timer). False for a
    /// still picture such as `apiexplorer snapshot`: its frame must not depend on how long the
    /// keys took, or a busy machine draws the spinner a step further.
    package var animatesSpinner = true
    /// Runs `work` once `delay` has passed: how the spinner's ticks and the end of the launch's
    /// loading-screen grace reach the reducer. Tests hold it back to decide when time has passed.
    package var schedule: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void = { delay, work in
        let (seconds, attoseconds) = delay.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: work)
    }
    /// Reads the time zone times are shown in (a launch effect: the local one is a file read).
    /// UTC unless set, so tests and snapshots show the same times anywhere.
    package var timeZone: @Sendable () -> LocalTimeZone = { .utc }

    /// Makes the services.
    package init(
        loadCatalog: @escaping @Sendable () -> (CatalogSet, SecretStore), transport: (any Transport)?, history: HistoryStore? = nil,
        drift: DriftStore? = nil, clock: DispatchClock = .continuous, environment: [String: String], extraPlugins: [any Plugin] = [],
        drafts: EnvironmentStateFile<[String: EndpointEdits]>? = nil, values: EnvironmentStateFile<[String: String]>? = nil,
        reloadCatalog: (@Sendable (CatalogSet, Set<String>?) -> (CatalogSet, SecretStore))? = nil,
        captured: EnvironmentStateFile<CapturedValues>? = nil, tokens: (any TokenPersistence)? = nil,
        cookies: (any CookiePersistence)? = nil
    ) {
        self.cookies = cookies
        self.captured = captured
        self.tokens = tokens
        self.loadCatalog = loadCatalog
        self.reloadCatalog = reloadCatalog
        self.transport = transport
        self.history = history
        self.drift = drift
        self.clock = clock
        self.environment = environment
        self.extraPlugins = extraPlugins
        self.drafts = drafts
        self.values = values
    }

    /// Reads the catalogs of `source` and the secrets of its folder; `maximumBodySize` replaces every
    /// environment's body cap (`--max-body-size`). Files are trusted as `trust` remembers (read at
    /// every load, so a catalog trusted elsewhere meanwhile counts), or all of them (`--trust`).
    /// `cache` keeps each file's parsed YAML, so files unchanged since the last launch are not parsed.
    /// Fixture files are read when a stub answers (`ServiceSession.send`), not at load.
    package static func catalogs(
        from source: CatalogSource, maximumBodySize: Int? = nil, trust: (any TrustPersistence)? = nil, trustingEverything: Bool = false,
        cache: (any CatalogParseCache)? = nil
    ) -> @Sendable () -> (CatalogSet, SecretStore) {
        let load = countingCatalogs(from: source, maximumBodySize: maximumBodySize, trust: trust, trustingEverything: trustingEverything, cache: cache)
        return { load(CatalogLoadProgress()) }
    }

    /// `catalogs(from:…)`, counting files in the progress it is given and stopping when it is cancelled.
    package static func countingCatalogs(
        from source: CatalogSource, maximumBodySize: Int? = nil, trust: (any TrustPersistence)? = nil, trustingEverything: Bool = false,
        cache: (any CatalogParseCache)? = nil
    ) -> @Sendable (CatalogLoadProgress) -> (CatalogSet, SecretStore) {
        { progress in
            let trusted = trustingEverything ? .everything : trusted(source, trust)
            return (
                CatalogLoader.load(source, trust: trusted, cache: cache, fixtures: .whenNeeded, progress: progress).limitingBodies(to: maximumBodySize),
                SecretStore.load(for: source)
            )
        }
    }

    /// Reads the changed catalog files of `source` again (all of them for nil), and its secrets.
    package static func reloading(
        from source: CatalogSource, maximumBodySize: Int? = nil, trust: (any TrustPersistence)? = nil, trustingEverything: Bool = false,
        cache: (any CatalogParseCache)? = nil
    ) -> @Sendable (CatalogSet, Set<String>?) -> (CatalogSet, SecretStore) {
        { previous, changed in
            let trusted = trustingEverything ? .everything : trusted(source, trust)
            return (
                CatalogLoader.reload(source, previous: previous, changedFiles: changed, trust: trusted, cache: cache, fixtures: .whenNeeded)
                    .limitingBodies(to: maximumBodySize),
                SecretStore.load(for: source)
            )
        }
    }

    /// What `trust` remembers for the source's folder.
    private static func trusted(_ source: CatalogSource, _ trust: (any TrustPersistence)?) -> CatalogTrust {
        guard let trust, let directory = source.directory else { return .nothing }
        return trust.trust(for: directory)
    }
}
