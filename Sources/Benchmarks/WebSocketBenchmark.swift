import ArgumentParser
import Catalog
import DispatcherCore
import ExplorerApp
import Foundation
import LiveTransport
import Synchronization
import TerminalKit
import TestSupport

/// `apiexplorer-bench websocket`: a WebSocket echo server on 127.0.0.1; the live transport sends
/// messages as fast as it can and every frame, sent and received, is handed to the explorer a
/// frame (16 ms) at a time, as the runtime's relay does; each frame is reduced and rendered at
/// 120×40. Reports the messages echoed per second (round trips) and the time of each frame.
struct WebSocketBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "websocket", abstract: "WebSocket messages echoed per second while the explorer shows every frame.")

    @Option(help: "Messages sent (each comes back).") var messages = 50_000

    func run() async throws {
        warnIfDebugBuild()
        let server = try await TestWebSocketServer { peer in
            while let frame = await peer.receive() {
                await peer.send(frame.opcode, frame.data)
                if frame.opcode == .connectionClose { return }
            }
        }
        let transport = HTTPTransport(configuration: .init(proxy: .none))
        do {
            try await measure(server: server, transport: transport)
        } catch {
            print("error: \(error)")
        }
        try await transport.shutdown()
        await server.stop()
    }

    private struct Pending {
        var opened: WebSocketUpdate.Opened?
        var frames: [WebSocketFrameRecord] = []
        var received = 0
    }

    private func measure(server: TestWebSocketServer, transport: HTTPTransport) async throws {
        var state = AppState(catalog: CatalogLoader.load(.bundled), size: Size(width: 120, height: 40))
        // httpbin/chat: the ticket the conversation's reports carry.
        state.press("/ W e b S o c k e t Enter Tab")
        let ticket = try state.sendSelected().id
        let pending = Mutex(Pending())
        let conversation = WebSocketConversation { event in
            pending.withLock { pending in
                switch event {
                case .opened(let headers, let subprotocol): pending.opened = WebSocketUpdate.Opened(headers: headers, subprotocol: subprotocol)
                case .frame(let frame):
                    pending.frames.append(frame)
                    if frame.direction == .received, case .message = frame.content { pending.received += 1 }
                }
            }
        }
        for index in 0..<messages { conversation.send(.text(#"{"n":\#(index),"text":"message \#(index % 97)"}"#)) }
        let environment = Environment(name: "bench", baseURL: URL(string: server.baseURL())!, fixtures: .never)
        var options = RequestOptions()
        options.webSocket = conversation
        let request = Request(
            identifier: "websocket", method: .get, url: URL(string: server.baseURL() + "/chat")!, settings: TransportSettings(environment: environment),
            options: options)
        let started = ContinuousClock.now
        let sending = Task { _ = try? await transport.send(request) }

        var frames = Measurements()
        var lastEcho = started
        var closing = false
        while true {
            try await Task.sleep(for: .milliseconds(16))
            let (update, received) = pending.withLock { pending -> (WebSocketUpdate?, Int) in
                defer {
                    pending.opened = nil
                    pending.frames = []
                }
                guard pending.opened != nil || !pending.frames.isEmpty else { return (nil, pending.received) }
                return (WebSocketUpdate(opened: pending.opened, frames: pending.frames), pending.received)
            }
            if let update {
                let start = ContinuousClock.now
                _ = AppReducer.reduce(&state, .webSocket(.updated(ticket: ticket, update: update)))
                _ = AppView.render(state)
                frames.add((ContinuousClock.now - start).nanoseconds)
            }
            if received >= messages, !closing {
                lastEcho = ContinuousClock.now
                closing = true
                conversation.close()
            }
            if conversation.isFinished && update == nil { break }
        }
        await sending.value
        let seconds = (lastEcho - started).nanoseconds / 1e9
        let shown = state.selectedWebSocket?.messageCounts ?? (sent: 0, received: 0)
        guard shown.received == messages else {
            throw ValidationError("the explorer shows \(shown.received) of \(messages) echoes")
        }
        print("WebSocket: \(messages) messages to an echo server on 127.0.0.1 and back, every frame shown, 120×40")
        print("  round trips per second          \(Int(Double(messages) / seconds))  (\(String(format: "%.2f", seconds)) s to the last echo)")
        print("  frames (reduce + render)        \(frames.samples.count), median \(formatNanoseconds(frames.median)), p99 \(formatNanoseconds(frames.percentile(99))), worst \(formatNanoseconds(frames.maximum))")
    }
}
