import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import TerminalKit
import Testing
import TestTraits

/// Scratch requests in the reducer: `C-n` asks, the runner reads, the request is selected and sent
/// live; `W` asks which service to save it into.
@Suite(.offPool) struct ReducerScratchTests {
    /// A scratch request the runner read, under shop · local's base URL.
    static func entry(number: Int = 1) -> ScratchEntry {
        let environment = Environment(name: "local", baseURL: URL(string: "http://127.0.0.1:9/shop")!, fixtures: .immediate)
        let endpoint = CatalogEndpoint(id: "request", serviceID: "scratch-\(number)", title: "GET …/items/3", path: "/items/3")
        let service = Service(id: "scratch-\(number)", title: "Scratch \(number)", environments: [environment], endpoints: [endpoint])
        return ScratchEntry(service: service, text: "GET http://127.0.0.1:9/shop/items/3", matched: TestCatalog.key("shop", "local"))
    }

    @Test func nAsksForARequestAndTheRunnerReadsIt() {
        var state = TestCatalog.state()
        _ = state.press("C-n")
        #expect(state.keyContext == .typing)
        #expect(state.screen.contains("New request"))
        _ = state.press("Enter")
        #expect(state.notice?.contains("Type a URL") == true)
        let effects = state.press("G E T Space h t t p : / / x / y Enter")
        #expect(effects == [.scratch(.make(text: "GET http://x/y", id: "scratch-1", preferring: TestCatalog.key("shop", "local")))])
        #expect(state.overlay == nil && state.isLoading)
        _ = AppReducer.reduce(&state, .scratch(.made(nil, error: "'FOO' is not a method")))
        #expect(state.notice == "Not sent: 'FOO' is not a method.")
        #expect(!state.isLoading)
    }

    @Test func aPastedMultiLineCurlCommandGoesOnAfterABackslash() {
        var state = TestCatalog.state()
        _ = state.press("C-n c u r l Space h t t p : / / x Space \\ Enter")
        #expect(state.overlay != nil)
        let effects = state.press("- I Enter")
        #expect(effects == [.scratch(.make(text: "curl http://x  -I", id: "scratch-1", preferring: TestCatalog.key("shop", "local")))])
    }

    @Test func aReadRequestIsSelectedAndSentLiveWhateverTheMode() throws {
        var state = TestCatalog.state()
        #expect(state.mode == .stub)
        let effects = AppReducer.reduce(&state, .scratch(.made(Self.entry(), error: nil)))
        #expect(state.activeService?.id == "scratch-1")
        #expect(state.selectedEndpoint?.path == "/items/3")
        let sent = try #require(effects.compactMap { if case .exchanges(.send(let ticket)) = $0 { ticket } else { nil } }.first)
        #expect(sent.call.mode == .live)
        #expect(sent.call.endpoint == EndpointKey(service: "scratch-1", endpoint: "request"))
        #expect(state.notice?.contains("settings of shop/local") == true)
        #expect(state.screen.split(separator: "\n").last?.contains("LIVE") == true, "the status bar says where a scratch request goes, whatever the mode")
    }

    @Test func scratchRequestsStayWhenTheCatalogsReload() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .scratch(.made(Self.entry(), error: nil)))
        _ = AppReducer.reduce(&state, .catalogReloaded(TestCatalog.load(), SecretStore(), changed: ["1-shop.yaml"]))
        #expect(state.catalog.service("scratch-1") != nil)
        #expect(state.activeService?.id == "scratch-1")
    }

    @Test func wAsksWhichServiceAndChecksTheAnswer() {
        var state = TestCatalog.state()
        state.catalog.source = CatalogSource(origin: .option, directory: URL(fileURLWithPath: "/tmp/catalogs"), displayPath: "catalogs")
        _ = AppReducer.reduce(&state, .scratch(.made(Self.entry(), error: nil)))
        _ = state.press("W")
        #expect(state.screen.contains("Service: shop"))
        _ = state.press("C-u 9 n o p e Enter")
        #expect(state.notice?.contains("'9nope' cannot name a service") == true)
        let effects = state.press("C-u s h o p Enter")
        #expect(effects == [.scratch(.save(Self.entry(), edits: nil, into: "shop"))])
    }

    /// With no service to save into yet (an empty catalog folder), a new name makes one.
    @Test func aNewNameMakesANewService() {
        var state = TestCatalog.state()
        state.catalog.source = CatalogSource(origin: .option, directory: URL(fileURLWithPath: "/tmp/catalogs"), displayPath: "catalogs")
        _ = AppReducer.reduce(&state, .scratch(.made(Self.entry(), error: nil)))
        let effects = state.press("W C-u m y - a p i Enter")
        #expect(effects == [.scratch(.save(Self.entry(), edits: nil, into: "my-api"))])
        #expect(state.notice == "Making service my-api (my-api.yaml) with the request…")
    }

    @Test func theBundledCatalogsTakeNoScratchRequest() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .scratch(.made(Self.entry(), error: nil)))
        _ = state.press("W")
        #expect(state.overlay == nil)
        #expect(state.notice?.contains("bundled catalogs cannot be written") == true)
    }

    @Test func aSavedRequestIsReplacedByItsEndpoint() {
        var state = TestCatalog.state()
        _ = AppReducer.reduce(&state, .scratch(.made(Self.entry(), error: nil)))
        _ = AppReducer.reduce(&state, .scratch(.saved(
            scratch: "scratch-1", endpoint: EndpointKey(service: "shop", endpoint: "deleteItem"), secretNames: ["SHOP_TOKEN"], error: nil)))
        #expect(state.catalog.service("scratch-1") == nil)
        #expect(state.scratch.entries.isEmpty)
        #expect(state.selectedEndpoint?.id == "deleteItem")
        #expect(state.notice?.contains("set SHOP_TOKEN") == true)
    }
}
