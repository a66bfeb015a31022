import ArgumentParser
import Catalog
import GRPCCalls
import GRPCReflection
import GRPCTransport
import SwiftProtobuf

/// `apiexplorer describe [SYMBOL]`: gRPC services, methods and message types as grpcurl's
/// `describe` prints them, from the catalogs' descriptor sets, a protoset or server reflection.
struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describes gRPC services, methods and message types as grpcurl does (from the catalogs, a protoset or reflection).",
        discussion: """
            With no SYMBOL, every service. SYMBOL is a full name: a service (routeguide.RouteGuide), a method \
            (routeguide.RouteGuide.GetFeature, or SERVICE/METHOD as `call` and grpcurl write it), a message, an enum, a \
            field or an enum value. The descriptors are the catalogs' kept descriptor sets, unless --protoset FILE or \
            --reflect HOST:PORT (TLS unless --plaintext) names others. `apiexplorer list --grpc` lists the services.
            """)

    @Argument(help: ArgumentHelp("The full name to describe.", valueName: "SYMBOL"))
    var symbol: String?

    @OptionGroup var source: DescriptorSourceOptions

    @OptionGroup var catalogOptions: CatalogOptions

    func run() async throws {
        let index = try await source.index { catalogOptions.load() }
        do {
            let text = try GRPCDescriptorText.describe(index, symbol: symbol.map(DescriptorSourceOptions.symbolName))
            Console.out(text, terminator: "")
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// Where `describe` and `list --grpc` read descriptors: `--reflect HOST:PORT [--plaintext]`,
/// `--protoset FILE`, else the catalogs' descriptor sets.
struct DescriptorSourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Ask this gRPC server's reflection service instead of the catalogs (TLS unless --plaintext).", valueName: "HOST:PORT"))
    var reflect: String?

    @Flag(help: "With --reflect: plaintext HTTP/2 (h2c) instead of TLS.")
    var plaintext = false

    @Option(help: ArgumentHelp("Read this protoset (protoc --include_imports --descriptor_set_out) instead of the catalogs.", valueName: "FILE"))
    var protoset: String?

    /// Whether any of them was given.
    var isGiven: Bool { reflect != nil || protoset != nil }

    /// `Service/Method` → `Service.Method` (grpcurl's describe takes dots; `call` writes a slash).
    static func symbolName(_ text: String) -> String { text.replacing("/", with: ".") }

    /// The descriptors they name, indexed; the catalogs (`catalog`, loaded only when needed) by default.
    func index(catalog: () -> CatalogSet) async throws -> GRPCDescriptorIndex {
        if reflect != nil, protoset != nil {
            Console.error("error: --reflect and --protoset name two sources of descriptors; give one")
            throw ExitStatus.usage
        }
        if plaintext, reflect == nil {
            Console.error("error: --plaintext goes with --reflect HOST:PORT")
            throw ExitStatus.usage
        }
        if let protoset {
            do {
                return GRPCDescriptorIndex(try GRPCProtoset.read(atPath: protoset))
            } catch {
                Console.error("error: \(error)")
                throw ExitCode(1)
            }
        }
        if let reflect { return GRPCDescriptorIndex(try await Self.reflected(reflect, plaintext: plaintext).set) }
        let loaded = catalog()
        let merged = Self.merged(loaded.services)
        guard !merged.file.isEmpty else {
            Console.error(
                "error: no catalog in \(loaded.source) keeps gRPC descriptors (`descriptors:`); import some (`apiexplorer import grpc|protoset|proto`), or give --reflect HOST:PORT or --protoset FILE"
            )
            throw ExitStatus.usage
        }
        return GRPCDescriptorIndex(merged)
    }

    /// The server's descriptors by reflection, and where the server is; a failure is said and thrown as the exit status.
    static func reflected(_ address: String, plaintext: Bool) async throws -> (set: Google_Protobuf_FileDescriptorSet, target: GRPCTarget) {
        let target: GRPCTarget
        do {
            target = try GRPCTarget(address: address, plaintext: plaintext)
        } catch {
            Console.error("error: \(error)")
            throw ExitStatus.usage
        }
        let connection: GRPCConnection
        do {
            connection = try GRPCConnection(target: target)
        } catch {
            Console.error("error: \(error.message)")
            throw ExitCode(1)
        }
        do {
            let fetched = try await GRPCReflectionClient(connection: connection).fetch()
            await connection.close()
            for note in fetched.notes { Console.error("note: \(note)") }
            return (fetched.set, target)
        } catch {
            await connection.close()
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// Every service's kept set as one: each file once (by name, the first kept), a damaged set said and skipped.
    static func merged(_ services: [Service]) -> Google_Protobuf_FileDescriptorSet {
        var merged = Google_Protobuf_FileDescriptorSet()
        var names: Set<String> = []
        for service in services {
            guard let file = service.descriptorSet else { continue }
            do {
                let set = try GRPCProtoset.decode(Array(file.data), source: file.path)
                for descriptor in set.file where names.insert(descriptor.name).inserted { merged.file.append(descriptor) }
            } catch {
                Console.error("warning: service \(service.id): \(error)")
            }
        }
        return merged
    }
}
