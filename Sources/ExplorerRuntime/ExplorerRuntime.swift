import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Synchronization
import TerminalKit

/// Runs the explorer: terminal events and effect results become actions; each batch of actions
/// goes through the reducer, its effects are performed, and one frame is drawn. Nothing runs while
/// nothing happens: no timers unless a request is in flight.
package final class ExplorerRuntime: Sendable {
    private let device: any TerminalDevice
    private let inbox = ActionInbox()
    private let runner: EffectRunner
    private let state: Mutex<AppState>
    private let idleWaiters = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let framesDrawn = Atomic<Int>(0)

    /// Makes a runtime on a terminal device. The catalogs, the time zone and what earlier runs kept
    /// are read by the first effects (the first frame waits up to `AppState.loadingScreenGrace` for
    /// the catalogs); `launch` says where the explorer opens once they are there.
    package init(device: any TerminalDevice, services: ExplorerServices, launch: LaunchOptions = LaunchOptions()) {
        self.device = device
        runner = EffectRunner(inbox: inbox, device: device, services: services)
        state = Mutex(AppState(launching: launch, size: device.size, timeZone: .utc))
    }

    /// Makes a runtime for catalogs already loaded (tests), with no history.
    /// - Parameters:
    ///   - transport: sends live requests; nil leaves live mode failing with a clear message.
    ///   - environment: where `$PAGER` and `$EDITOR` are looked up.
    package convenience init(
        catalog: CatalogSet, secrets: SecretStore, transport: (any Transport)?, device: any TerminalDevice,
        environment: [String: String] = [:]
    ) {
        let services = ExplorerServices(loadCatalog: { (catalog, secrets) }, transport: transport, environment: environment)
        self.init(device: device, services: services)
    }

    /// The current state (for tests and the snapshot command).
    package var currentState: AppState { state.withLock { $0 } }

    /// How many frames were presented.
    package var frameCount: Int { framesDrawn.load(ordering: .relaxed) }

    /// Runs until the user quits or the terminal goes away.
    package func run() async {
        let inbox = self.inbox
        let device = self.device
        inbox.post(.launched)
        let events = Task {
            for await event in device.events { inbox.post(.terminal(event)) }
            inbox.post(.terminalClosed)
        }
        defer { events.cancel() }

        // The first frame is drawn after `.launched`: at once when the catalogs are already
        // there, else when they arrive or the loading screen is due (`AppState.holdsFrames`).
        var bell = inbox.doorbell.makeAsyncIterator()
        while let batch = await inbox.next(&bell) {
            var effects: [AppEffect] = []
            let quitting = state.withLock { state -> Bool in
                for action in batch { effects += AppReducer.reduce(&state, action) }
                return state.isQuitting
            }
            for effect in effects { runner.perform(effect) }
            if quitting { break }
            present()
            inbox.finishedBatch()
            resumeIdleWaitersIfIdle()
        }
        await runner.cancelAll()
        resumeIdleWaitersIfIdle(force: true)
    }

    /// Posts an action as if it came from outside (tests, scripted keys).
    package func post(_ action: AppAction) { inbox.post(action) }

    /// Waits until no action is queued, no request is in flight and no body is being formatted or queried.
    package func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = isIdle
            if idle {
                continuation.resume()
            } else {
                idleWaiters.withLock { $0.append(continuation) }
                resumeIdleWaitersIfIdle()
            }
        }
    }

    private var isIdle: Bool {
        inbox.isEmpty && runner.runningCount == 0
            && state.withLock { state in
                // An open WebSocket waits for the person: it does not keep the explorer busy.
                let busy = state.inFlight.keys.contains { ticket in !state.webSocket.panes.values.contains { $0.ticket == ticket && $0.isOpen } }
                return !busy && !state.hasBodyWorkInProgress && !state.isLoading && !state.rpc.isReading
            }
    }

    private func resumeIdleWaitersIfIdle(force: Bool = false) {
        guard force || isIdle else { return }
        let waiters = idleWaiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func present() {
        guard let frame = state.withLock({ $0.holdsFrames ? nil : AppView.render($0) }) else { return }
        device.present(frame)
        framesDrawn.add(1, ordering: .relaxed)
        runner.framesDrawn.add(1, ordering: .releasing)
    }
}
