import BodyViewer
import Catalog
import DispatcherCore
import FoundationEssentials

/// Responses shown while they arrive: events listed as they come, other streamed bodies formatted
/// again as bytes arrive (one build at a time: the end of one starts the next).
extension BodyFeature {
    static func streamed(ticket: Int, update: StreamUpdate, state: inout BodyState, _ context: Context) -> [AppEffect] {
        guard let key = context.inFlight[ticket]?.endpoint else { return [] }
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
                effects += stopWork(key, state: &state)
                state.streams[key] = ResponseStream(ticket: ticket, status: head.status, headers: head.headers)
            }
        }
        guard state.streams[key]?.ticket == ticket else { return effects }
        // In place: a copy of the stream would copy every event so far, once per frame.
        state.streams[key]?.events.append(contentsOf: update.events)
        state.streams[key]?.byteCount = update.byteCount
        if state.streams[key]?.kind == .text { state.streams[key]?.received.append(update.bytes) }
        return effects + buildStreamed(key, state: &state)
    }

    /// Formats the bytes of a text stream so far, unless a build is running (its end starts the next).
    static func buildStreamed(_ key: EndpointKey, state: inout BodyState) -> [AppEffect] {
        guard var stream = state.streams[key], stream.kind == .text, stream.received.count > stream.builtByteCount else { return [] }
        let old = state.panes[key]
        if let old, old.isStreamed, old.building != nil { return [] }
        let generation = state.nextGeneration
        state.nextGeneration += 1
        var pane = BodyPane(generation: generation, byteCount: stream.received.count)
        pane.isStreamed = true
        if let old, old.isStreamed {
            // The view (cursor, folds, search) carries over to the longer document.
            pane.main = old.main
            pane.prompt = old.prompt
        }
        state.panes[key] = pane
        stream.builtByteCount = stream.received.count
        state.streams[key] = stream
        return [.body(.build(key: key, generation: generation, data: stream.received, contentType: stream.headers["Content-Type"]))]
    }

    /// Stops what the endpoint's earlier body was doing in the background.
    static func stopWork(_ key: EndpointKey, state: inout BodyState) -> [AppEffect] {
        guard let old = state.panes[key] else { return [] }
        var effects: [AppEffect] = []
        if old.building != nil { effects.append(.body(.cancel(key: key, work: .build))) }
        if old.pendingSelection != nil { effects.append(.body(.cancel(key: key, work: .selection))) }
        if old.active?.view.search != nil { effects.append(.body(.cancel(key: key, work: .count))) }
        state.panes[key] = nil
        return effects
    }

    /// The stream's request ended: the server closed it, it failed, or the person closed it
    /// (`cancelled`: then what arrived is the response, not a "cancelled" error; see `ResponseStream.closedNote`).
    static func streamEnded(ticket: Int, key: EndpointKey, cancelled: Bool, state: inout BodyState) {
        guard var stream = state.streams[key] else { return }
        guard stream.ticket == ticket else {
            state.streams[key] = nil
            return
        }
        stream.isOpen = false
        if cancelled { stream.closedByUser = true }
        state.streams[key] = stream
    }

    /// Moves the cursor in the selected event stream.
    static func moveInEvents(_ movement: AppReducer.Movement, paging: Bool, state: inout BodyState, _ context: Context) {
        guard let key = context.selected, var stream = state.streams[key], stream.kind == .events, let current = stream.selectedIndex
        else { return }
        stream.cursor = movement.followingCursor(paging: paging, from: current, count: stream.events.count, pageHeight: context.pageHeight)
        state.streams[key] = stream
    }
}

extension BodyState {
    /// Whether `key`'s answer is an event stream with events to move between.
    func showsEvents(_ key: EndpointKey?) -> Bool {
        guard let stream = key.flatMap({ streams[$0] }) else { return false }
        return stream.kind == .events && stream.selectedIndex != nil
    }
}
