import BodyViewer
import Catalog
import DispatcherCore
import TerminalKit

/// The one place state changes: an action in, the new state and the effects to perform out.
public enum AppReducer {
    /// How often the spinner moves while requests are in flight.
    public static let spinnerInterval: Duration = .milliseconds(80)

    /// Applies `action` to `state` and returns the effects the runtime must perform.
    public static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        var effects: [AppEffect]
        switch action {
        case .terminal(.key(let event)):
            state.notice = nil
            effects = handleKey(event, state: &state)
        case .terminal(.mouse(let event)):
            effects = handleMouse(event, state: &state)
        case .terminal(.resize(let size)):
            state.size = size
            effects = []
        case .exchangeFinished(let ticketID, let exchange, let redactor):
            effects = []
            if let ticket = state.inFlight.removeValue(forKey: ticketID) {
                let record = ResponseRecord(ticket: ticket, exchange: exchange, redactor: redactor)
                state.responses[ticket.endpointKey] = record
                state.remember(record)
                if state.selectedEndpoint?.qualifiedID == ticket.endpointKey { state.tabScroll = [:] }
                effects = startBody(for: record, state: &state)
            }
        case .activityChanged(let count):
            state.activity = max(0, count)
            effects = []
        case .logged(let lines):
            state.log.append(contentsOf: lines)
            if state.log.count > AppState.logLimit { state.log.removeFirst(state.log.count - AppState.logLimit) }
            effects = []
        case .spinnerTick(let generation):
            guard generation == state.spinnerGeneration else { return [] }
            state.spinnerScheduled = false
            if state.needsSpinner { state.spinnerFrame += 1 }
            effects = []
        case .terminalClosed:
            effects = quit(&state)
        case .copied(let description):
            state.notice = "Copied \(description) to the clipboard."
            effects = []
        case .historyLoaded(let earlier):
            // Requests of this run are newer than anything in the file.
            state.history = Array((state.history + earlier).prefix(HistoryItem.limit))
            effects = []
        case .driftMarksLoaded(let marks):
            state.driftMarks = marks
            effects = []
        case .bodyBuildProgress(let key, let generation, let status, let preview):
            bodyBuildProgress(key: key, generation: generation, status: status, preview: preview, state: &state)
            effects = []
        case .bodyBuilt(let key, let generation, let document):
            bodyBuilt(key: key, generation: generation, document: document.document, state: &state)
            effects = []
        case .bodyBuildStopped(let key, let generation):
            bodyBuildStopped(key: key, generation: generation, state: &state)
            effects = []
        case .bodyMatchCount(let key, let document, let query, let count):
            bodyMatchCount(key: key, document: document, query: query, count: count, state: &state)
            effects = []
        case .bodySelectionFinished(let key, let id, let outcome):
            bodySelectionFinished(key: key, id: id, outcome: outcome, state: &state)
            effects = []
        case .bodySaveFinished(let key, let path, let byteCount, let error):
            bodySaveFinished(key: key, path: path, byteCount: byteCount, error: error, state: &state)
            effects = []
        case .bodyMessage(let message):
            state.notice = message
            effects = []
        }
        if state.needsSpinner, !state.spinnerScheduled, !state.isQuitting {
            state.spinnerScheduled = true
            state.spinnerGeneration += 1
            effects.append(.scheduleSpinnerTick(generation: state.spinnerGeneration, after: spinnerInterval))
        }
        return effects
    }

    static func quit(_ state: inout AppState) -> [AppEffect] {
        state.isQuitting = true
        let cancels = state.inFlight.keys.sorted().map { AppEffect.cancel(ticket: $0) }
        return cancels + [.quit]
    }
}

extension AppState {
    /// Whether anything is in flight, so the spinner should turn.
    public var needsSpinner: Bool { activity > 0 || !inFlight.isEmpty }
}
