import Foundation
import Synchronization
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The gRPC test server of `GRPCServers/grpc_test_server.py` (grpcio, grpcio-reflection,
/// grpcio-status; `scripts/install-dependencies` installs them), started on 127.0.0.1 at a free
/// port: routeguide.proto's RouteGuide (all four kinds) and Probe (metadata echo, deadlines,
/// errors with details, compression, endless streams). It ends with the test process: it watches
/// its standard input, whose write end only this process holds.
package final class PythonGRPCServer: Sendable {
    /// How it serves.
    package struct Options: Sendable, Hashable {
        /// TLS with the test PKI's `server` certificate (for 127.0.0.1 and localhost).
        package var tls = false
        /// Mutual TLS: clients must present a certificate signed by the test PKI's `client-ca`.
        package var clientCertificates = false
        /// Whether the reflection service (v1alpha, all grpcio-reflection serves) is on.
        package var reflection = true

        package init(tls: Bool = false, clientCertificates: Bool = false, reflection: Bool = true) {
            self.tls = tls
            self.clientCertificates = clientCertificates
            self.reflection = reflection
        }
    }

    /// Why a server could not be had.
    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// The port it listens on.
    package let port: Int
    private let process: ChildProcess

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    /// The folder holding the scripts and routeguide.proto.
    package static var folder: URL {
        Bundle.module.url(forResource: "GRPCServers", withExtension: nil)
            ?? Bundle.module.bundleURL.appendingPathComponent("GRPCServers", isDirectory: true)
    }

    /// The service's proto file.
    package static var protoPath: String { folder.appendingPathComponent("routeguide.proto").path }

    /// python3 on PATH.
    package static var python: String? {
        ExecutableSearch.locate("python3", searchPath: ProcessInfo.processInfo.environment["PATH"])
    }

    /// Whether python3 has grpcio and the packages the server imports (checked once).
    package static let isAvailable: Bool = {
        guard let python, let result = try? ChildProcess(
            python, ["-c", "import grpc, grpc_tools, grpc_reflection, grpc_status"], environment: ProcessInfo.processInfo.environment,
            directory: FileManager.default.currentDirectoryPath
        ).collect() else { return false }
        return result.status == 0
    }()

    /// One server per options for the whole test process, started at first use.
    package static func shared(_ options: Options = Options()) async throws -> PythonGRPCServer {
        let task = started.withLock { servers in
            if let task = servers[options] { return task }
            let task = Task { try await start(options) }
            servers[options] = task
            return task
        }
        return try await task.value
    }

    private static let started = Mutex<[Options: Task<PythonGRPCServer, any Error>]>([:])

    /// A server of its own (stop it with `stop()`).
    package static func start(_ options: Options = Options()) async throws -> PythonGRPCServer {
        guard let python else { throw Unavailable("python3 is not on PATH") }
        var arguments = [folder.appendingPathComponent("grpc_test_server.py").path]
        if options.tls {
            arguments += ["--tls", TestCertificates.server.certificatePath, TestCertificates.server.privateKeyPath]
            if options.clientCertificates { arguments += ["--client-ca", TestCertificates.clientCA.certificatePath] }
        }
        if !options.reflection { arguments.append("--no-reflection") }
        let process = try ChildProcess(python, arguments, environment: ProcessInfo.processInfo.environment, input: .pipe, output: .pipe, errors: .null)
        let line = await offPool { Self.readLine(process.output) }
        guard let line, line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.kill()
            _ = await offPool { process.wait() }
            throw Unavailable("grpc_test_server.py did not start (it printed '\(line ?? "")')")
        }
        return PythonGRPCServer(port: port, process: process)
    }

    /// Ends the server.
    package func stop() async {
        process.kill()
        if let input = process.input { close(input) }
        _ = await offPool { self.process.wait() }
    }

    /// The first line the child writes (blocks).
    private static func readLine(_ descriptor: Int32?) -> String? {
        guard let descriptor else { return nil }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// routeguide.proto compiled by grpc_tools.protoc with its imports: a protoset's bytes.
    package static func protoset() async throws -> [UInt8] {
        guard let python else { throw Unavailable("python3 is not on PATH") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("routeguide-\(UUID().uuidString).protoset").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await offPool {
            try ChildProcess(
                python, [folder.appendingPathComponent("compile_protoset.py").path, output], environment: ProcessInfo.processInfo.environment,
                directory: FileManager.default.currentDirectoryPath
            ).collect()
        }
        guard result.status == 0, let data = FileManager.default.contents(atPath: output) else {
            throw Unavailable("grpc_tools.protoc failed: \(result.errors)")
        }
        return Array(data)
    }
}
