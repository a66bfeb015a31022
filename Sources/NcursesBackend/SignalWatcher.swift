import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT, SIGTERM, SIGHUP and SIGWINCH into calls on a private queue.
///
/// The terminating signals are set to SIG_IGN first so they cannot kill the process before the
/// terminal is restored; dispatch still reports them. SIGWINCH keeps its default disposition:
/// dispatch installs its own handler, and ncurses, seeing a handler in place, does not add one.
final class SignalWatcher: Sendable {
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    private let queue = DispatchQueue(label: "apiexplorer.signals")

    /// Starts watching; `terminate` gets SIGINT/SIGTERM/SIGHUP, `resize` gets SIGWINCH.
    func start(terminate: @escaping @Sendable (Int32) -> Void, resize: @escaping @Sendable () -> Void) {
        let queue = self.queue
        sources.withLock { sources in
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { terminate(signalNumber) }
                source.resume()
                sources.append(source)
            }
            let winch = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
            winch.setEventHandler { resize() }
            winch.resume()
            sources.append(winch)
        }
    }

    /// Stops watching and gives the signals back their default actions (call once the terminal is restored).
    func stop() {
        let wasWatching = sources.withLock { sources -> Bool in
            for source in sources { source.cancel() }
            defer { sources = [] }
            return !sources.isEmpty
        }
        guard wasWatching else { return }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { signal(signalNumber, SIG_DFL) }
    }
}
