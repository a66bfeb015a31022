import DispatcherCore
import TerminalKit

/// Everything that can happen to the app: input, results of effects, time.
public enum AppAction: Sendable {
    /// A key, a mouse event or a resize from the terminal.
    case terminal(TerminalEvent)
    /// A request finished (or was cancelled).
    case exchangeFinished(ticket: Int, exchange: Exchange, redactor: Redactor)
    /// The activity plugin's count of requests on the wire changed.
    case activityChanged(Int)
    /// The network logger wrote lines.
    case logged([String])
    /// A spinner tick of the given generation.
    case spinnerTick(generation: Int)
    /// The terminal went away (signal, hang-up): quit at once.
    case terminalClosed
    /// Text reached the clipboard.
    case copied(description: String)
}

/// Work the reducer asks the runtime to do; its results come back as actions.
public enum AppEffect: Sendable, Hashable {
    /// Send a request.
    case send(RequestTicket)
    /// Cancel a request in flight.
    case cancel(ticket: Int)
    /// Send a spinner tick after the delay.
    case scheduleSpinnerTick(generation: Int, after: Duration)
    /// Put text on the clipboard (OSC 52); `description` says what it was.
    case copyToClipboard(text: String, description: String)
    /// Leave the app.
    case quit
}
