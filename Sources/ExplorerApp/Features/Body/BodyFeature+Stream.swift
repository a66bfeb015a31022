import BodyViewer
import Catalog
import DispatcherCore
import FoundationEssentials

/// Responses shown while they arrive: events listed as they come, other streamed bodies formatted
/// again as bytes arrive (one build at a time: the end of one starts the next).
extension AppReducer {
    static func responseStreamed(ticket: Int, update: StreamUpdate, state: inout AppState) -> [AppEffect] {
        guard let key = state.inFlight[ticket]?.endpoint else { return [] }
        var effects: [AppEffect] = []
        if let head = update.head {
            if var stream = state.streams[key], stream.ticket == ticket,
                stream.kind == .events, ResponseStream.kind(contentType: head.headers["Content-Type"]) != .events
            {
                // A reconnection answered with anything but events (204: stop) ends the stream as it was.
                stream.connections += 1
                state.streams[key] = stream
            } else if var stream = state.streams[key], stream.ticket == ticket {
                // Reconnected (or redirected): the events so far stay.
                stream.status = head.status
                stream.headers = head.headers
                stream.kind = ResponseStream.kind(contentType: head.headers["Content-Type"])
                stream.connections += 1
                state.streams[key] = stream
            } else {
                effects += stopBodyWork(key, state: &state)
                state.streams[key] = ResponseStream(ticket: ticket, status: head.status, headers: head.headers)
            }
        }
        guard state.streams[key]?.ticket == ticket else { return effects }
        // In place: a copy of the stream would copy every event so far, once per frame.
        state.streams[key]?.events.append(contentsOf: update.events)
        state.streams[key]?.byteCount = update.byteCount
        if state.streams[key]?.kind == .text { state.streams[key]?.received.append(update.bytes) }
        return effects + buildStreamedBody(key, state: &state)
    }

    /// Formats the bytes of a text stream so far, unless a build is running (its end starts the next).
    static func buildStreamedBody(_ key: EndpointKey, state: inout AppState) -> [AppEffect] {
        guard var stream = state.streams[key], stream.kind == .text, stream.received.count > stream.builtByteCount else { return [] }
        let old = state.bodies[key]
        if let old, old.isStreamed, old.building != nil { return [] }
        let generation = state.nextBodyGeneration
        state.nextBodyGeneration += 1
        var pane = BodyPane(generation: generation, byteCount: stream.received.count)
        pane.isStreamed = true
        if let old, old.isStreamed {
            // The view (cursor, folds, search) carries over to the longer document.
            pane.main = old.main
            pane.prompt = old.prompt
        }
        state.bodies[key] = pane
        stream.builtByteCount = stream.received.count
        state.streams[key] = stream
        return [.buildBody(key: key, generation: generation, data: stream.received, contentType: stream.headers["Content-Type"])]
    }

    /// Stops what the endpoint's earlier body was doing in the background.
    static func stopBodyWork(_ key: EndpointKey, state: inout AppState) -> [AppEffect] {
        guard let old = state.bodies[key] else { return [] }
        var effects: [AppEffect] = []
        if old.building != nil { effects.append(.cancelBodyWork(key: key, work: .build)) }
        if old.pendingSelection != nil { effects.append(.cancelBodyWork(key: key, work: .selection)) }
        if old.active?.view.search != nil { effects.append(.cancelBodyWork(key: key, work: .count)) }
        state.bodies[key] = nil
        return effects
    }

    /// The stream's request ended: the server closed it, it failed, or the person closed it (then
    /// what arrived is the response, not a "cancelled" error).
    static func streamEnded(ticket: Int, key: EndpointKey, exchange: inout Exchange, state: inout AppState) {
        guard var stream = state.streams[key] else { return }
        guard stream.ticket == ticket else {
            state.streams[key] = nil
            return
        }
        stream.isOpen = false
        if let error = exchange.error, error.kind == .cancelled, let partial = error.response {
            stream.closedByUser = true
            exchange.result = .success(partial)
            let count = stream.kind == .events ? "\(stream.events.count) event\(stream.events.count == 1 ? "" : "s")" : ByteCount.format(stream.byteCount)
            exchange.notes.append("The stream was closed by you after \(count).")
        }
        state.streams[key] = stream
    }

    /// Moves the cursor in the selected event stream; false when the Body tab shows no events.
    static func moveInEvents(_ movement: Movement, paging: Bool = false, state: inout AppState) -> Bool {
        guard state.tab == .body, let key = state.selectedBodyKey, var stream = state.streams[key], stream.kind == .events,
            let current = stream.selectedIndex
        else { return false }
        stream.cursor = followingCursor(movement, paging: paging, from: current, count: stream.events.count, pageHeight: state.pageHeight)
        state.streams[key] = stream
        return true
    }

    /// Where a cursor goes in a list that grows while it is shown (events, frames): nil when the
    /// newest item is chosen, which means following the list again.
    static func followingCursor(_ movement: Movement, paging: Bool, from current: Int, count: Int, pageHeight: Int) -> Int? {
        let page = max(1, pageHeight - 1)
        let step: Movement = switch movement {
        case .down(let lines): .down(paging ? page : lines)
        case .up(let lines): .up(paging ? page : lines)
        default: movement
        }
        let target = step.applied(to: current, count: count)
        return target == count - 1 ? nil : target
    }
}

extension AppState {
    /// The stream shown for the selected endpoint, if its latest answer is (or was) one.
    package var selectedStream: ResponseStream? { selectedBodyKey.flatMap { streams[$0] } }
}
