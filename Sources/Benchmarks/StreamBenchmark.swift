import ArgumentParser
import Catalog
import DispatcherCore
import ExplorerApp
import Foundation
import LiveTransport
import Synchronization
import TerminalKit
import TestSupport

/// `apiexplorer-bench stream`: a fast Server-Sent Events source on 127.0.0.1 read through the live
/// transport, its events parsed as they arrive and handed to the explorer a frame (16 ms) at a
/// time, as the runtime's relay does; each frame is reduced and rendered at 120×40. Reports the
/// events per second kept up with and the time of each frame. Target: ≥ 10,000 events/s with no
/// frame over 16 ms.
struct StreamBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream", abstract: "Server-Sent Events per second shown by the explorer, and the time of each frame.")

    @Option(help: "Events the server sends, as fast as it can.") var events = 200_000
    @Option(help: "Events per chunk the server writes.") var eventsPerChunk = 50

    func run() async throws {
        warnIfDebugBuild()
        let chunks = stride(from: 0, to: events, by: eventsPerChunk).map { start in
            (start..<min(events, start + eventsPerChunk)).map { index in
                "id: \(index + 1)\nevent: token\ndata: {\"index\":\(index + 1),\"delta\":\"word \(index % 97)\"}\n\n"
            }.joined()
        }
        let server = try await TestHTTPServer.start(recordsRequests: false) { _ in
            .chunked(chunks, headers: ["Content-Type": "text/event-stream"])
        }
        let transport = HTTPTransport(configuration: .init(proxy: .none))
        do {
            try await measure(server: server, transport: transport)
        } catch {
            print("error: \(error)")
        }
        try await transport.shutdown()
        try await server.shutdown()
    }

    private struct Pending {
        var head: StreamHead?
        var events: [StreamedEvent] = []
        var parser = ServerSentEventParser()
        var byteCount = 0
        var done = false
    }

    private func measure(server: TestHTTPServer, transport: HTTPTransport) async throws {
        var state = AppState(catalog: CatalogLoader.load(.bundled), size: Size(width: 120, height: 40))
        // httpbin/events, sent in live mode: the ticket the stream's reports carry.
        state.press("/ e v e n t s Enter Tab")
        let ticket = try state.sendSelected().id
        let pending = Mutex(Pending())
        let started = ContinuousClock.now
        let observer: ResponsePartObserver = { part in
            let at = started.duration(to: .now)
            pending.withLock { pending in
                switch part {
                case .head(let status, let headers): pending.head = StreamHead(status: status, headers: headers)
                case .body(let data):
                    pending.byteCount += data.count
                    pending.events += pending.parser.parse(data).map { StreamedEvent(at: at, event: $0) }
                }
            }
            return true
        }
        let environment = Environment(name: "bench", baseURL: server.baseURL, fixtures: .never)
        let request = Request(
            identifier: "stream", method: .get, url: server.url("/events"), headers: ["Accept": "text/event-stream"],
            settings: TransportSettings(environment: environment), options: RequestOptions(onResponsePart: observer, isStream: true))
        let sending = Task {
            _ = try? await transport.send(request)
            pending.withLock { $0.done = true }
        }

        var frames = Measurements()
        var shown = 0
        var lastFrame = ContinuousClock.now
        while true {
            try await Task.sleep(for: .milliseconds(16))
            let (update, done) = pending.withLock { pending -> (StreamUpdate?, Bool) in
                defer {
                    pending.head = nil
                    pending.events = []
                }
                guard pending.head != nil || !pending.events.isEmpty else { return (nil, pending.done) }
                return (StreamUpdate(head: pending.head, events: pending.events, byteCount: pending.byteCount), pending.done)
            }
            if let update {
                let start = ContinuousClock.now
                _ = AppReducer.reduce(&state, .body(.streamed(ticket: ticket, update: update)))
                _ = AppView.render(state)
                lastFrame = ContinuousClock.now
                frames.add((lastFrame - start).nanoseconds)
                shown += update.events.count
            }
            if done && update == nil { break }
        }
        await sending.value
        let seconds = (lastFrame - started).nanoseconds / 1e9
        guard let stream = state.selectedStream, stream.events.count == events else {
            throw ValidationError("the explorer shows \(state.selectedStream?.events.count ?? 0) of \(events) events")
        }
        print("Server-Sent Events: \(events) events (\(ByteCount.format(stream.byteCount))) from 127.0.0.1 as fast as it sends, 120×40")
        print("  events per second shown        \(Int(Double(shown) / seconds))  (\(String(format: "%.2f", seconds)) s to the last)")
        print("  frames (reduce + render)       \(frames.samples.count), median \(formatNanoseconds(frames.median)), p99 \(formatNanoseconds(frames.percentile(99))), worst \(formatNanoseconds(frames.maximum))")
        print("  events per frame               \(shown / max(1, frames.samples.count)) on average")
    }
}
