import Testing
@testable import TerminalKit
import TestTraits

@Suite("Headless terminal", .offPool)
struct HeadlessTerminalTests {
    @Test("Records frames and delivers injected events in order")
    func roundTrip() async throws {
        let terminal = HeadlessTerminal(size: Size(width: 20, height: 5))
        var buffer = Buffer(size: terminal.size)
        buffer.write("hello", at: .zero)
        terminal.present(Frame(buffer: buffer, cursor: Position(x: 5, y: 0)))
        #expect(terminal.lastFrame?.buffer.plainText().hasPrefix("hello") == true)
        #expect(terminal.lastFrame?.cursor == Position(x: 5, y: 0))

        try terminal.send(keys: "j Enter")
        terminal.resize(to: Size(width: 1, height: 1))
        terminal.send(.mouse(MouseEvent(.wheelDown, at: Position(x: 0, y: 0))))
        terminal.writeControlSequence("\u{1B}]52;c;aGk=\u{7}")
        terminal.shutdown()
        terminal.shutdown()

        var events: [TerminalEvent] = []
        for await event in terminal.events { events.append(event) }
        #expect(events == [
            .key(.character("j")), .key(KeyEvent(.enter)), .resize(Size(width: 1, height: 1)),
            .mouse(MouseEvent(.wheelDown, at: .zero)),
        ])
        #expect(terminal.size == Size(width: 1, height: 1))
        #expect(terminal.controlSequences.count == 1)
        #expect(terminal.isShutDown)
    }

    @Test("Suspend runs the body and returns its result")
    func suspend() async throws {
        let terminal = HeadlessTerminal(size: Size(width: 2, height: 2))
        let value = try await terminal.suspend { 42 }
        #expect(value == 42 && terminal.suspensionCount == 1)
    }

    @Test("Frame history is bounded")
    func history() {
        let terminal = HeadlessTerminal(size: Size(width: 1, height: 1), frameHistoryLimit: 3)
        for _ in 0..<10 { terminal.present(Frame(buffer: Buffer(width: 1, height: 1))) }
        #expect(terminal.frames.count == 3)
    }
}
