import Foundation
import SystemSupport
import TestSupport

/// Runs the built `apiexplorer` binary with `state` as its state folder, trusting the catalog it is given.
enum CLI {
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["APIEXPLORER_BINARY"] { return URL(fileURLWithPath: path) }
        return BuiltProducts.executable(named: "apiexplorer")
    }()

    static func run(_ arguments: [String], state: TemporaryDirectory) async throws -> ChildProcess.Captured {
        var arguments = arguments
        if let index = arguments.firstIndex(of: "--catalog") { arguments.insert("--trust", at: index) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = state.path
        let spawned = try ChildProcess(binary.path, arguments, environment: environment, directory: state.path, newSession: true)
        return await spawned.finish()
    }
}

/// A catalog of the Python test server's methods (routeguide.proto) with its protoset beside it.
enum RouteGuideCatalog {
    /// Compiled once for the test process.
    static let protoset = Task { try await PythonGRPCServer.protoset() }

    static func write(into folder: TemporaryDirectory, port: Int, extra: String = "") async throws {
        try folder.write("routeguide.protoset", Data(try await protoset.value))
        try folder.write("routeguide.yaml", """
            service: routeguide
            descriptors: routeguide.protoset
            environments:
              local:
                baseURL: http://127.0.0.1:\(port)
                headers:
                  x-team: "{{team}}"
            variables:
              team: blue
            endpoints:
              getFeature:
                grpc: routeguide.RouteGuide/GetFeature
                headers:
                  x-mock-example: "{{pick}}"
                parameters: { pick: default }
                body: { latitude: 409146138, longitude: -746188906 }
                stub:
                  message: { name: stubbed, location: { latitude: 1, longitude: 2 } }
                examples:
                  gone:
                    status: { code: NOT_FOUND, message: no feature there, reason: GONE, domain: routes.test }
                  slow:
                    status: { code: RESOURCE_EXHAUSTED, retryDelay: 2s }
              listFeatures:
                grpc: routeguide.RouteGuide/ListFeatures
                body: { lo: { latitude: 1, longitude: 5 }, hi: { latitude: 3, longitude: 5 } }
                stub:
                  messages:
                    - { name: a }
                    - { after: 0.05, message: { name: b } }
              recordRoute:
                grpc: routeguide.RouteGuide/RecordRoute
                body: [{ latitude: 1, longitude: 1 }, { latitude: 1, longitude: 4 }]
              echo:
                grpc: routeguide.Probe/Echo
                headers:
                  x-token: "{{token}}"
                body: { text: hello }
              fail:
                grpc: routeguide.Probe/Echo
                body: { text: "{{what}}", failWith: "{{code}}" }
                parameters: { what: nothing here, code: NOT_FOUND }
            \(extra)
            """)
    }
}
