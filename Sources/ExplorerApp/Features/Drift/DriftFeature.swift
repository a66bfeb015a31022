import Catalog

/// The drift badges: what the last `apiexplorer check` said of each endpoint, per service and
/// environment, read at launch.
package struct DriftState: Sendable {
    /// The last result per service and environment, by endpoint id.
    package fileprivate(set) var marks: [EnvironmentKey: [String: DriftMark]] = [:]
}

/// What happens to the drift badges.
package enum DriftAction: Sendable {
    /// The last drift checks, read at launch.
    case loaded([EnvironmentKey: [String: DriftMark]])
}

/// Work the drift badges ask of the runtime.
package enum DriftEffect: Sendable, Hashable {
    /// Read the last drift checks, reporting `.loaded`.
    case load
}

/// What the last drift check (`apiexplorer check`) said of an endpoint in an environment.
package enum DriftMark: String, Sendable, Hashable {
    /// The live response matched the stub.
    case matches
    /// The live response differed from the stub.
    case drifted
    /// The live request failed, so nothing could be compared.
    case failed
}

enum DriftFeature: AppFeature {
    static func reduce(_ state: inout DriftState, _ action: DriftAction, _ shell: inout AppShell, _ context: Void) -> [AppEffect] {
        switch action {
        case .loaded(let marks):
            state.marks = marks
            shell.pendingLoads.remove(.drift(.load))
        }
        return []
    }
}
