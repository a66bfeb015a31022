import DispatcherCore
import Foundation
import Synchronization
import TestSupport
import Testing
import TestTraits

@Suite(.offPool) struct ActivityTests {
    @Test func theCountReturnsToZeroAfterHundredConcurrentRequestsSomeCancelledSomeFailing() async throws {
        let clock = ManualClock()
        let began = Atomic<Int>(0)
        let ended = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let activity = NetworkActivityPlugin { change, inFlight in
            switch change {
            case .began: began.add(1, ordering: .relaxed)
            case .ended: ended.add(1, ordering: .relaxed)
            }
            peak.max(inFlight, ordering: .relaxed)
        }
        // Live requests wait one second on the manual clock; cancellation ends them.
        let transport = ScriptedTransport { request, _ throws(TransportError) in
            do {
                try await clock.sleep(for: .seconds(1))
            } catch {
                throw TransportError(.cancelled)
            }
            return Response(status: request.url.path.hasSuffix("fail") ? 500 : 200, body: Data("{}".utf8), url: request.url)
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: transport, plugins: [activity], clock: DispatchClock(clock))

        var tasks: [Task<Exchange, Never>] = []
        for index in 0..<100 {
            let target: Target
            let options: RequestOptions
            switch index % 4 {
            case 0: (target, options) = (Target(.get, "/slow-stub", sampleResponse: sample(200, "{}")), RequestOptions(stubBehavior: .delayed(.seconds(10))))
            case 1: (target, options) = (Target(.get, "/missing", sampleResponse: sample(404, "{}")), RequestOptions(stubBehavior: .immediate))
            case 2: (target, options) = (Target(.get, "/live-fail"), RequestOptions())
            default: (target, options) = (Target(.get, "/live-ok"), RequestOptions())
            }
            tasks.append(Task { await dispatcher.send(target, options: options) })
        }
        // 25 delayed stubs + 50 live requests sleep on the clock; the 25 immediate 404s are done.
        try #require(await clock.waitForSleepers(75))
        // The immediate 404s end on their own tasks; give a busy machine time to finish them.
        for _ in 0..<2_000 where activity.inFlight != 75 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(activity.inFlight == 75)
        for (index, task) in tasks.enumerated() where index % 4 == 0 || index % 8 == 3 { task.cancel() }
        clock.advance(by: .seconds(1))
        let exchanges = await tasks.asyncMap { await $0.value }

        #expect(activity.inFlight == 0)
        #expect(began.load(ordering: .relaxed) == 100)
        #expect(ended.load(ordering: .relaxed) == 100)
        #expect(peak.load(ordering: .relaxed) <= 100)
        #expect(exchanges.enumerated().filter { $0.offset % 4 == 0 }.allSatisfy { $0.element.error?.kind == .cancelled })
        #expect(exchanges.enumerated().filter { $0.offset % 4 == 1 }.allSatisfy { $0.element.error?.kind == .notFound })
        #expect(exchanges.enumerated().filter { $0.offset % 4 == 2 }.allSatisfy { $0.element.error?.kind == .internalServerError })
        #expect(exchanges.enumerated().filter { $0.offset % 8 == 3 }.allSatisfy { $0.element.error?.kind == .cancelled })
        #expect(exchanges.enumerated().filter { $0.offset % 8 == 7 }.allSatisfy { $0.element.response?.status == 200 })
    }

    @Test func requestsThatDoNotCountAreIgnored() async {
        let activity = NetworkActivityPlugin()
        let log = EventLog()
        let observer = NetworkActivityPlugin { change, _ in log.append("\(change)") }
        let dispatcher = Dispatcher<Target>(environment: environment(), plugins: [activity, observer])
        _ = await dispatcher.send(Target(.get, "/quiet", sampleResponse: sample(200, "{}")), options: RequestOptions(countsTowardsActivity: false))
        #expect(log.all.isEmpty)
        _ = await dispatcher.send(Target(.get, "/loud", sampleResponse: sample(200, "{}")))
        #expect(log.all == ["began", "ended"])
    }

    @Test func identicalRequestsInFlightShareOneResponse() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport { request, call throws(TransportError) in
            do { try await clock.sleep(for: .seconds(1)) } catch { throw TransportError(.cancelled) }
            return Response(status: 200, body: Data("call \(call)".utf8), url: request.url)
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: transport, clock: DispatchClock(clock), trackInflights: true)
        let tasks = (0..<10).map { _ in Task { await dispatcher.send(Target(.get, "/shared")) } }
        let other = Task { await dispatcher.send(Target(.get, "/other")) }
        try #require(await clock.waitForSleepers(2))
        try await Task.sleep(for: .milliseconds(20))  // let every waiter join
        tasks[0].cancel()
        #expect(await tasks[0].value.error?.kind == .cancelled)
        clock.advance(by: .seconds(1))
        let bodies = await tasks.dropFirst().asyncMap { await $0.value.response?.text }
        #expect(Set(bodies).count == 1)
        #expect(await other.value.response?.status == 200)
        #expect(transport.count == 2)
    }

    @Test func whenEveryWaiterLeavesTheSharedRequestIsCancelled() async throws {
        let clock = ManualClock()
        let activity = NetworkActivityPlugin()
        let transport = ScriptedTransport { request, _ throws(TransportError) in
            do { try await clock.sleep(for: .seconds(1)) } catch { throw TransportError(.cancelled) }
            return Response(status: 200, url: request.url)
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: transport, plugins: [activity], clock: DispatchClock(clock),
            trackInflights: true)
        let tasks = (0..<3).map { _ in Task { await dispatcher.send(Target(.get, "/shared")) } }
        try #require(await clock.waitForSleepers(1))
        for task in tasks { task.cancel() }
        for task in tasks { #expect(await task.value.error?.kind == .cancelled) }
        let deadline = ContinuousClock.now + .seconds(5)
        while activity.inFlight != 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(activity.inFlight == 0)
        #expect(clock.sleeperCount == 0)
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
