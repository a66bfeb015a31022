import Foundation
import TestSupport
import Testing

/// Every end-to-end test runs the real `apiexplorer` binary. They run one at a time: they share
/// the machine's terminal emulator (tmux) budget and the bundled catalogs' mock port 4010.
@Suite(.serialized, .enabled(if: Products.hasTmux, "tmux is not installed (scripts/install-dependencies installs it)"))
struct EndToEnd {}

/// The bundled catalogs copied to a temporary folder, with their local environments pointed at
/// `port`, so a test's mock server never meets one a developer left running on 4010.
struct TemporaryCatalog {
    let directory: URL

    init(mockPort port: Int) throws {
        let source = Products.repositoryRoot.appendingPathComponent("environments")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apiexplorer-e2e-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: directory)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".yaml") {
            let file = directory.appendingPathComponent(name)
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(of: "127.0.0.1:4010", with: "127.0.0.1:\(port)")
                .write(to: file, atomically: true, encoding: .utf8)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// A child process of the built binary (the mock server, snapshot runs).
enum ProductProcess {
    /// Starts `apiexplorer arguments…` with standard output captured line by line.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = Products.apiexplorer
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Runs `apiexplorer arguments…` to the end; returns its exit status and standard output.
    static func run(_ arguments: [String], currentDirectory: URL? = nil) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = Products.apiexplorer
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// Starts `apiexplorer mock --port 0` on a catalog and reads the port it chose.
    static func startMock(catalog: URL) throws -> (process: Process, port: Int) {
        let (process, output) = try start(["mock", "--catalog", catalog.path, "--port", "0", "--no-delay"])
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let firstLine = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        // "Mock server for … on http://127.0.0.1:PORT — Ctrl-C to stop"
        guard let range = firstLine.range(of: "http://127.0.0.1:"),
            let port = Int(firstLine[range.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            throw MockStartError(line: firstLine)
        }
        // Keep draining so the server never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        return (process, port)
    }

    struct MockStartError: Error, CustomStringConvertible {
        let line: String
        var description: String { "the mock server did not say where it listens: \(line)" }
    }
}

extension Products {
    /// The repository (for environments/ and screenshots/).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
