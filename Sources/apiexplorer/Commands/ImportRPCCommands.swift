import ArgumentParser
import Catalog
import FoundationEssentials
import GRPCReflection
import JSONSupport
import ProtoJSON
import StateStore
import SwiftProtobuf
import SystemSupport

/// `apiexplorer import grpc HOST:PORT`: the services a server describes by reflection, as a catalog.
struct ImportGRPCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grpc",
        abstract: "Turns the services a gRPC server describes by reflection into a catalog.",
        discussion: """
            Asks the server's reflection service (grpc.reflection.v1, else v1alpha) for its services and their files, and \
            writes SERVICE.yaml (one endpoint per method, its request message as a JSON skeleton, a stub of the response's \
            shape) with the descriptor set beside it as SERVICE.protoset. HOST:PORT is TLS unless --plaintext (as grpcurl); \
            grpc:// and http:// URLs are plaintext, grpcs:// and https:// TLS.
            """)

    @Argument(help: ArgumentHelp("The server.", valueName: "HOST:PORT"))
    var address: String

    @Flag(help: "Plaintext HTTP/2 (h2c) instead of TLS.")
    var plaintext = false

    @OptionGroup var output: ImportOutputOptions

    func run() async throws {
        let (set, target) = try await DescriptorSourceOptions.reflected(address, plaintext: plaintext)
        let scheme = target.secure ? "https" : "http"
        try RPCCatalogWriter.write(set, baseURL: "\(scheme)://\(target.authority)", options: output, command: "import grpc \(address)")
    }
}

/// `apiexplorer import protoset FILE`: a descriptor set as a catalog.
struct ImportProtosetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protoset",
        abstract: "Turns a protoset (protoc --include_imports --descriptor_set_out) into a catalog of its services.",
        discussion: """
            Writes SERVICE.yaml (one endpoint per method) and SERVICE.protoset beside it. Its `local` environment points \
            at `apiexplorer mock`'s gRPC port (\(RPCMock.defaultPort)); add one for your server.
            """)

    @Argument(help: ArgumentHelp("The protoset.", valueName: "FILE"))
    var file: String

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try GRPCProtoset.read(atPath: file)
        } catch {
            Console.error("error: \(error)")
            throw ExitStatus.usage
        }
        try RPCCatalogWriter.write(set, baseURL: "http://127.0.0.1:\(RPCMock.defaultPort)", options: output, command: "import protoset \(file)")
    }
}

/// `apiexplorer import proto FILE…`: .proto files compiled by protoc, as a catalog.
struct ImportProtoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proto",
        abstract: "Turns .proto files into a catalog of their services (compiled by protoc: Debian's protobuf-compiler).",
        discussion: "Each file's folder is an import path, with any -I given. Writes SERVICE.yaml and SERVICE.protoset beside it.")

    @Argument(help: ArgumentHelp("The .proto files.", valueName: "FILE"))
    var files: [String]

    @Option(name: [.customShort("I"), .customLong("import-path")], help: ArgumentHelp("A folder imports are looked up in (repeatable).", valueName: "DIR"))
    var importPaths: [String] = []

    @OptionGroup var output: ImportOutputOptions

    func run() async throws {
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try await GRPCProtoCompiler.compile(files, importPaths: importPaths)
        } catch {
            Console.error("error: \(error)")
            throw error.kind == .protocMissing ? ExitCode(2) : ExitCode(1)
        }
        try RPCCatalogWriter.write(
            set, baseURL: "http://127.0.0.1:\(RPCMock.defaultPort)", options: output, command: "import proto \(files.joined(separator: " "))")
    }
}

/// Writes a catalog of a descriptor set's services: one endpoint per method (its id the method's
/// name in lowerCamelCase, the service's prepended when two services share a method name), the
/// request skeleton as its body, a stub of the response's shape, the set beside it.
enum RPCCatalogWriter {
    static func write(_ set: Google_Protobuf_FileDescriptorSet, baseURL: String, options: ImportOutputOptions, command: String) throws {
        let bytes: [UInt8]
        let pool: DescriptorPool
        do {
            bytes = try set.serializedBytes()
            pool = try DescriptorPool(protoset: bytes)
        } catch {
            Console.error("error: the descriptor set cannot be read: \(error)")
            throw ExitCode(1)
        }
        let services = pool.services.filter { !$0.fullName.hasPrefix("grpc.reflection.") && !$0.fullName.hasPrefix("grpc.health.") }
        guard !services.isEmpty else {
            Console.error("error: the descriptor set defines no service (only messages): there is nothing to call.")
            throw ExitCode(1)
        }
        let id = options.service ?? serviceID(for: services[0])
        let yaml = catalogText(id: id, services: services, pool: pool, baseURL: baseURL, command: command)
        let folder = URL(fileURLWithPath: options.out)
        let catalogURL = folder.appendingPathComponent("\(id).yaml")
        let setURL = folder.appendingPathComponent("\(id).protoset")
        for url in [catalogURL, setURL] where !options.force && FileStatus.exists(url.path) {
            Console.error("error: \(url.path) exists; --force replaces it (nothing was written)")
            throw ExitStatus.usage
        }
        do throws(SystemError) {
            try AtomicFile.createDirectory(folder, permissions: 0o755)
            try AtomicFile.write(Data(bytes), to: setURL, replacing: options.force)
            try AtomicFile.write(Data(yaml.utf8), to: catalogURL, replacing: options.force)
        } catch {
            Console.error("error: the catalog could not be written: \(error)")
            throw ExitCode(1)
        }
        do throws(SystemError) {
            try TrustFile().trust([CatalogTrust.contentHash(of: Data(yaml.utf8))], in: folder)
        } catch {
            Console.error("warning: the imported catalog is not trusted (\(error)): `apiexplorer trust \(options.out)` trusts it")
        }
        let methods = services.reduce(0) { $0 + $1.methods.count }
        Console.out("Wrote \(catalogURL.path): service \(id), \(methods) methods of \(services.map(\.fullName).joined(separator: ", ")); descriptors in \(setURL.lastPathComponent)")
        Console.out("Check it with `apiexplorer validate \(options.out)`; try it with `apiexplorer list --catalog \(options.out)`.")
    }

    /// `routeguide` for `routeguide.RouteGuide`; the service's name for one without a package.
    static func serviceID(for service: ServiceDescriptor) -> String {
        let parts = service.fullName.split(separator: ".")
        let name = parts.count > 1 ? parts.dropLast().joined(separator: "-") : service.name
        let cleaned = String(name.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        return cleaned.isEmpty || !(cleaned.first?.isLetter ?? false) ? "grpc" : cleaned
    }

    static func catalogText(id: String, services: [ServiceDescriptor], pool: DescriptorPool, baseURL: String, command: String) -> String {
        let names = services.flatMap { $0.methods.map(\.name) }
        var lines = [
            "# Written by `apiexplorer \(command)`: one endpoint per method; bodies are request messages as JSON.",
            "service: \(id)",
            "descriptors: \(id).protoset",
            "environments:",
            "  local:",
            "    baseURL: \(baseURL)",
            "endpoints:",
        ]
        for service in services {
            for method in service.methods {
                let shared = names.filter { $0 == method.name }.count > 1
                let endpointID = lowerCamel(shared ? service.name + method.name : method.name)
                let kind = method.clientStreaming ? (method.serverStreaming ? "bidirectional streaming" : "client streaming") : (method.serverStreaming ? "server streaming" : "unary")
                let request = pool.skeleton(of: method.input)
                let response = pool.skeleton(of: method.output)
                lines += [
                    "  \(endpointID):",
                    "    title: \(service.name)/\(method.name)",
                    "    description: \(JSONValue.string("\(kind): \(pool[method.input].fullName) → \(pool[method.output].fullName)").compactText)",
                    "    grpc: \(service.fullName)/\(method.name)",
                    "    body: \(method.clientStreaming ? JSONValue.array([request]).compactText : request.compactText)",
                    "    stub:",
                    method.serverStreaming ? "      messages: [\(response.compactText)]" : "      message: \(response.compactText)",
                ]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `GetFeature` → `getFeature`.
    static func lowerCamel(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }
}
