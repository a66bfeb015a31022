/// A terminal the runtime draws on and reads events from. Implementations: `HeadlessTerminal`
/// (tests, `snapshot`) and the ncurses backend.
///
/// All methods may be called from any thread or task.
package protocol TerminalDevice: AnyObject, Sendable {
    /// The current size in cells.
    var size: Size { get }

    /// Keys, mouse actions and resizes, in order. The stream finishes when the terminal is gone
    /// (after `shutdown()`, or when a backend is stopped by a signal such as SIGTERM or SIGHUP);
    /// a runtime treats a finished stream as "quit now".
    var events: AsyncStream<TerminalEvent> { get }

    /// Shows a frame. Only the latest frame matters: a device may skip frames it could not draw
    /// in time, and draws only what changed since the last frame it drew.
    func present(_ frame: Frame)

    /// Sends raw bytes to the terminal between frames (e.g. an OSC 52 clipboard sequence).
    func writeControlSequence(_ bytes: String)

    /// Leaves the terminal to `body` (which runs a child such as $PAGER or $EDITOR that owns the tty),
    /// then takes it back and redraws the whole screen. Events are not read while `body` runs.
    func suspend<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result

    /// Restores the terminal and finishes `events`. Idempotent; safe from any thread.
    func shutdown()
}
