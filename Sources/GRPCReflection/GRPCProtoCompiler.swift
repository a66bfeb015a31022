import FoundationEssentials
import SwiftProtobuf
import SystemSupport
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `.proto` files compiled by `protoc` (Debian's protobuf-compiler) into a descriptor set, as
/// `protoc --include_imports --descriptor_set_out` does: protobuf's own parser, not one written here.
package enum GRPCProtoCompiler {
    /// What to do when protoc is missing.
    package static let installHint =
        "install Debian's protobuf-compiler (apt-get install protobuf-compiler; libprotobuf-dev adds the well-known types), "
        + "or import a protoset made with protoc --include_imports --descriptor_set_out=FILE"

    /// protoc on `PATH`, if any.
    package static func locate(searchPath: String? = ProcessEnvironment.variables["PATH"]) -> String? {
        ExecutableSearch.locate("protoc", searchPath: searchPath)
    }

    /// The descriptors of `files` and all they import. Each file's folder is an import path, after
    /// `importPaths`; protoc's errors (`file:line:column: message`) are the error's message.
    package static func compile(
        _ files: [String], importPaths: [String] = [], protoc: String? = nil, searchPath: String? = ProcessEnvironment.variables["PATH"]
    ) async throws(GRPCDescriptorError) -> Google_Protobuf_FileDescriptorSet {
        guard !files.isEmpty else { throw GRPCDescriptorError(.protocFailed, "No .proto file was given.") }
        guard let executable = protoc ?? locate(searchPath: searchPath) else {
            throw GRPCDescriptorError(.protocMissing, "protoc is not installed, and .proto files need it: \(installHint).")
        }
        for file in files where FileStatus(path: file) == .missing {
            throw GRPCDescriptorError(.protocFailed, "\(file) does not exist.")
        }
        let output: String
        do {
            output = try TemporaryFile.create(Data(), prefix: "apiexplorer-protoset-", suffix: ".pb")
        } catch {
            throw GRPCDescriptorError(.protocFailed, "No temporary file for protoc's output could be made (\(error)).")
        }
        defer { unlink(output) }
        var folders: [String] = importPaths
        for file in files {
            let folder = file.contains("/") ? String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)]) : "."
            let absolute = folder.isEmpty ? "/" : folder
            if !folders.contains(absolute) { folders.append(absolute) }
        }
        // protoc has no `--`: a file named like a flag is passed as ./-name.
        let arguments = folders.map { "--proto_path=\($0)" } + ["--include_imports", "--descriptor_set_out=\(output)"]
            + files.map { $0.hasPrefix("-") ? "./" + $0 : $0 }
        let (status, errors) = try await run(executable, arguments)
        guard status == 0 else {
            let text = TerminalText.cleaned(String(decoding: errors, as: UTF8.self)).trimmed
            throw GRPCDescriptorError(
                .protocFailed, "protoc could not compile \(files.joined(separator: ", ")):\n" + (text.isEmpty ? "exit status \(status)" : text))
        }
        guard let data = FileContents.read(atPath: output, atMost: GRPCProtoset.sizeLimit) else {
            throw GRPCDescriptorError(.protocFailed, "protoc's descriptor set could not be read back.")
        }
        return try GRPCProtoset.decode(Array(data), source: "protoc's output")
    }

    /// Runs protoc with its standard error piped (read on a thread of its own), to its end.
    private static func run(_ executable: String, _ arguments: [String]) async throws(GRPCDescriptorError) -> (Int32, [UInt8]) {
        let process: ChildProcess
        do {
            process = try ChildProcess(executable, arguments, environment: ProcessEnvironment.variables, input: .null, output: .null, errors: .pipe)
        } catch {
            throw GRPCDescriptorError(.protocFailed, "\(executable) could not be started (\(error)).")
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = PosixThread.start {
                    var errors: [UInt8] = []
                    if let descriptor = process.errors {
                        errors = FileDescriptor.readAll(descriptor)
                        close(descriptor)
                    }
                    continuation.resume(returning: (process.wait(), errors))
                }
                if !started {
                    process.kill()
                    continuation.resume(returning: (process.wait(), Array("no thread could be started to run protoc".utf8)))
                }
            }
        } onCancel: {
            process.kill()
        }
    }
}
