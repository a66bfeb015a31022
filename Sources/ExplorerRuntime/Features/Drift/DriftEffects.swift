import Catalog
import ExplorerApp
import StateStore

/// Reads the last drift checks for the badges.
struct DriftEffects: Sendable {
    /// Where drift checks are kept; nil shows no badges.
    let store: DriftStore?

    func perform(_ effect: DriftEffect, _ context: EffectContext) {
        switch effect {
        case .load:
            context.load { [store] in .drift(.loaded(store.map { Self.marks($0.everyResult()) } ?? [:])) }
        }
    }

    /// The last drift check of every service and environment, as badges.
    static func marks(_ results: [EnvironmentKey: [String: DriftStore.Record]]) -> [EnvironmentKey: [String: DriftMark]] {
        results.mapValues { endpoints in
            endpoints.compactMapValues { record -> DriftMark? in
                switch record.result.outcome {
                case .same: .matches
                case .drifted: .drifted
                case .failed: .failed
                case .skipped: nil
                }
            }
        }
    }
}
