import Catalog
import DispatcherCore
import ExplorerApp
import Sessions

/// What a feature's effect handler may use of the runner: posting an action, work in the
/// background that must end before the explorer does, and the sessions of the loaded catalogs.
/// Handlers live in `Features/<Name>/` and `EffectRunner.perform` routes each feature's effects to
/// its handler (the one place they are registered).
struct EffectContext: Sendable {
    /// Posts an action to the app at once.
    let post: @Sendable (AppAction) -> Void
    /// Runs work in the background and posts the action it returns.
    let load: @Sendable (@escaping @Sendable () async -> AppAction) -> Void
    /// Runs work in the background that the explorer waits for before it ends, and returns its task.
    let run: @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>
    /// The session of an environment in a mode, when its catalog is loaded.
    let session: @Sendable (EnvironmentKey, RequestMode) -> ServiceSession?
}
