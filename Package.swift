// swift-tools-version:6.2
import PackageDescription

// Every target lists exactly the modules its sources import (scripts/check-imports checks it).
// Nothing shipped imports Foundation: FoundationEssentials does without ICU's 34 MB data table.
// Only the library products declare `public`; modules share the rest with `package` (scripts/check-access).
let fuzzedModules = ["JSONSupport", "JSONSchema", "YAMLSupport", "HTTPEcho", "BodyViewer", "CatalogAuthoring", "ProtoJSON"]
// Apart: GRPCWire pulls in SwiftNIO and swift-protobuf, which the parsers' fuzz targets need not build for the fuzzer.
let fuzzedGRPCModules = ["GRPCWire"]
let package = Package(
    name: "apiexplorer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "apiexplorer", targets: ["apiexplorer"]),
        .executable(name: "apiexplorer-bench", targets: ["Benchmarks"]),
        /// The Moya-style dispatcher core: any Swift program can use it on its own.
        .library(name: "DispatcherCore", targets: ["DispatcherCore"]),
        /// Live HTTP for the dispatcher core, over AsyncHTTPClient.
        .library(name: "LiveTransport", targets: ["LiveTransport"]),
        /// Catalogs read into the core's types, and the sessions that send their endpoints.
        .library(name: "Catalog", targets: ["Catalog", "Sessions"]),
        /// Only for the fuzz targets (Fuzz/), which import these modules `@testable`: nothing in them is public.
        .library(name: "FuzzedModules", targets: fuzzedModules),
        /// Only for the gRPC wire format's fuzz target; nothing in it is public.
        .library(name: "FuzzedGRPCModules", targets: fuzzedGRPCModules),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Its optional traits (Foundation streams, FieldMask helpers) off: the runtime then imports FoundationEssentials only.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
    ],
    targets: [
        // MARK: Foundations
        .target(name: "TextSupport"),
        .target(name: "SystemSupport", dependencies: ["TextSupport"]),
        .target(name: "JSONSupport", dependencies: ["TextSupport"]),
        .target(name: "JSONSchema", dependencies: ["JSONSupport", "TextSupport"]),
        .systemLibrary(name: "CLibCrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .target(name: "CryptoSupport", dependencies: ["CLibCrypto"]),
        // Protobuf messages by descriptor at run time: binary and proto3 JSON, both ways.
        .target(name: "ProtoJSON", dependencies: ["JSONSupport", "TextSupport", .product(name: "SwiftProtobuf", package: "swift-protobuf")]),

        // MARK: Networking
        .target(
            name: "DispatcherCore",
            dependencies: [
                "JSONSupport",
                "TextSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Where a request's time went: curl's --write-out, the waterfall, response-time statistics.
        .target(name: "TimingReport", dependencies: ["DispatcherCore", "JSONSupport", "TextSupport"]),
        // Two responses compared: status, headers, a structural JSON diff, ignore rules and noise.
        .target(name: "ResponseDiff", dependencies: ["JSONSupport", "TextSupport"]),
        // Assertions on responses (`expect:`): status, headers, JSONPath predicates, size, time.
        .target(name: "Expectations", dependencies: ["DispatcherCore", "JSONSupport", "TextSupport"]),
        .target(name: "RequestExport", dependencies: ["DispatcherCore", "JSONSupport"]),
        .target(name: "HTTPEcho", dependencies: ["DispatcherCore", "JSONSupport", "TextSupport"]),
        .target(
            name: "OAuth2",
            dependencies: [
                "DispatcherCore", "JSONSupport", "CryptoSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "DigestAuth",
            dependencies: ["DispatcherCore", "TextSupport", "CryptoSupport"]
        ),
        .target(
            name: "LiveTransport",
            dependencies: [
                "DispatcherCore",
                "SystemSupport",
                "TextSupport",
                "CZlib",
                "CIDN2",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                "CryptoSupport",
            ]
        ),

        // MARK: gRPC (docs/grpc.md): GRPCCore's client and server over swift-nio-http2 and NIOSSL
        // Messages on the wire: length-prefixed framing, gzip, metadata as HTTP/2 headers, status and its details.
        .target(
            name: "GRPCWire",
            dependencies: [
                "CZlib", "TextSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]
        ),
        // GRPCCore's ClientTransport and ServerTransport over HTTP/2 (h2c and TLS with an environment's trust).
        .target(
            name: "GRPCTransport",
            dependencies: [
                "GRPCWire", "DispatcherCore", "LiveTransport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        // Calls of the four kinds with encoded messages in and out; their outcome mapped to the core's error kinds.
        .target(
            name: "GRPCCalls",
            dependencies: [
                "GRPCTransport", "GRPCWire", "DispatcherCore", "TextSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Descriptor sets from server reflection, protosets and .proto files (protoc); grpcurl-like list and describe.
        .target(
            name: "GRPCReflection",
            dependencies: [
                "GRPCCalls", "GRPCWire", "SystemSupport", "TextSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Generated/README.md"]
        ),
        // A gRPC server for the mock: canned answers per method, and reflection over the descriptor set it serves.
        .target(
            name: "GRPCMock",
            dependencies: [
                "GRPCCalls", "GRPCTransport", "GRPCWire", "GRPCReflection",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),

        // Catalogs' gRPC endpoints through the dispatcher core: the transport that calls them, their messages by descriptor.
        .target(
            name: "GRPCDispatch",
            dependencies: [
                "DispatcherCore", "GRPCCalls", "GRPCTransport", "GRPCWire", "JSONSupport", "ProtoJSON",
            ]
        ),

        // MARK: Catalogs
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPSL", providers: [.apt(["libpsl-dev"]), .brew(["libpsl"])]),
        // Internationalized host names in their ASCII form, as curl sends them (libpsl links it too).
        .systemLibrary(name: "CIDN2", providers: [.apt(["libidn2-dev"]), .brew(["libidn2"])]),
        .target(name: "YAMLSupport", dependencies: ["CYAML", "JSONSupport"]),
        .target(
            name: "Catalog",
            dependencies: ["DispatcherCore", "JSONSupport", "TextSupport", "SystemSupport", "YAMLSupport", "CryptoSupport", "Expectations", "ResponseDiff"]),
        // Sends catalog endpoints: a session per service and environment with its auth, tokens and cookies.
        .target(name: "Sessions", dependencies: ["Catalog", "CPSL", "DigestAuth", "DispatcherCore", "HTTPEcho", "JSONSupport", "OAuth2"]),
        .target(
            name: "MockServer",
            dependencies: [
                "Catalog",
                "DispatcherCore",
                "HTTPEcho",
                "JSONSupport",
                "TextSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "CryptoSupport",
            ]
        ),

        // MARK: State kept between runs, drift checks, catalog authoring
        // Runs catalogs as tests: endpoints' and examples' `expect:`, and flows.
        .target(name: "TestRunner", dependencies: ["Catalog", "Sessions", "DispatcherCore", "Expectations", "RequestExport"]),
        // Flows as load tests for an engine that scales out (a Locust locustfile).
        .target(name: "LoadExport", dependencies: ["Catalog", "Sessions", "DispatcherCore", "Expectations", "JSONSupport"]),
        // JUnit, TAP and JSON reports of test runs, and their terminal summary.
        .target(name: "TestReports", dependencies: ["TestRunner", "Expectations", "JSONSupport", "TextSupport"]),
        .target(name: "StateStore", dependencies: ["Catalog", "Sessions", "DispatcherCore", "OAuth2", "JSONSupport", "TextSupport", "SystemSupport", "YAMLSupport"]),
        .target(name: "ContractCheck", dependencies: ["Catalog", "DispatcherCore", "JSONSchema", "JSONSupport", "TextSupport"]),
        .target(name: "DriftCheck", dependencies: ["Catalog", "Sessions", "ContractCheck", "DispatcherCore", "JSONSupport", "StateStore"]),
        .target(
            name: "CatalogAuthoring",
            dependencies: ["Catalog", "ContractCheck", "DispatcherCore", "JSONSchema", "JSONSupport", "StateStore", "TextSupport", "SystemSupport", "YAMLSupport"]
        ),

        // MARK: Terminal user interface
        .target(name: "TerminalKit"),
        .target(name: "BodyViewer", dependencies: ["JSONSupport", "TextSupport", "SystemSupport"]),
        .target(
            name: "ExplorerApp",
            dependencies: ["TerminalKit", "BodyViewer", "DispatcherCore", "Catalog", "Sessions", "Expectations", "JSONSupport", "OAuth2", "RequestExport", "TextSupport", "YAMLSupport"]
        ),
        .target(
            name: "ExplorerRuntime",
            dependencies: [
                "ExplorerApp", "TerminalKit", "BodyViewer", "DispatcherCore", "Catalog", "Sessions", "CatalogAuthoring", "StateStore", "SystemSupport",
                "TestRunner", "TextSupport",
            ]
        ),
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "NcursesBackend", dependencies: ["CNcursesw", "TerminalKit", "SystemSupport"]),

        // MARK: The command line
        .executableTarget(
            name: "apiexplorer",
            dependencies: [
                "DispatcherCore", "LiveTransport", "Catalog", "Sessions", "MockServer", "ExplorerApp", "ExplorerRuntime", "NcursesBackend",
                "TerminalKit", "StateStore", "DriftCheck", "CatalogAuthoring", "JSONSupport", "RequestExport", "TextSupport", "SystemSupport",
                "TestRunner", "TestReports", "ContractCheck", "LoadExport", "GRPCDispatch", "GRPCCalls", "GRPCReflection", "GRPCMock", "GRPCTransport", "GRPCWire", "ProtoJSON", "TimingReport", "ResponseDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            // Start-up (figures: docs/performance.md): the Swift runtime's static link exports every
            // symbol, each looked up at load, and writes a relocation entry per pointer; lld packs them
            // (RELR, glibc ≥ 2.36) and nothing is exported. Linked at a fixed address (not
            // position-independent), those pointers are written at link time, so the loader no longer
            // copies pages to fix them. The cost: the binary's own code and data are not at a random
            // address (libraries, heap and stacks still are), as Go links its binaries by default.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xclang-linker", "-no-pie"],
                    .when(platforms: [.linux]))
            ]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "DispatcherCore", "LiveTransport", "Catalog", "Sessions", "BodyViewer", "ExplorerApp", "TerminalKit", "TestSupport", "GRPCCalls", "GRPCTransport", "GRPCWire",
                "JSONSupport", "JSONSchema", "ContractCheck", "StateStore", "SystemSupport", "CatalogAuthoring", "TestRunner", "YAMLSupport", "ProtoJSON", "ResponseDiff",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Test support and tests
        .target(
            name: "TestSupport",
            dependencies: [
                "SystemSupport",
                "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            // GRPCServers: the Python gRPC test server, its proto and the benchmark's client.
            resources: [.copy("Certificates"), .copy("GRPCServers")]
        ),
        // Test traits the test targets share (Swift Testing): apart from TestSupport, which the benchmark links too.
        .target(name: "TestTraits", dependencies: ["TestSupport"]),
        .target(
            name: "CatalogTestSupport",
            dependencies: [
                "Catalog", "CatalogAuthoring", "DispatcherCore", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .target(
            name: "ExplorerTestSupport",
            dependencies: ["ExplorerApp", "BodyViewer", "Catalog", "DispatcherCore", "Sessions", "TerminalKit"]
        ),
        .testTarget(name: "TextSupportTests", dependencies: ["TestTraits", "TextSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["TestTraits", "SystemSupport"]),
        .testTarget(name: "JSONSupportTests", dependencies: ["TestTraits", "JSONSupport"]),
        .testTarget(
            name: "ProtoJSONTests",
            dependencies: ["TestTraits", "ProtoJSON", "JSONSupport", "SystemSupport", "TestSupport", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            resources: [.copy("Resources")]),
        .testTarget(name: "ContractCheckTests", dependencies: ["TestTraits", "ContractCheck", "Catalog", "JSONSchema", "TestSupport"]),
        .testTarget(name: "JSONSchemaTests", dependencies: ["TestTraits", "JSONSchema", "JSONSupport"], resources: [.copy("Resources")]),
        .testTarget(name: "HTTPEchoTests", dependencies: ["TestTraits", "HTTPEcho", "JSONSupport"]),
        .testTarget(name: "YAMLSupportTests", dependencies: ["TestTraits", "YAMLSupport", "TestSupport"]),
        .testTarget(name: "CryptoSupportTests", dependencies: ["TestTraits", "CryptoSupport"]),
        .testTarget(
            name: "TestSupportTests",
            dependencies: [
                "TestTraits", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        .testTarget(name: "DispatcherCoreTests", dependencies: ["TestTraits", "DispatcherCore", "JSONSupport", "RequestExport", "TestSupport"]),
        .testTarget(name: "TimingReportTests", dependencies: ["TestTraits", "TimingReport", "DispatcherCore"]),
        .testTarget(name: "ResponseDiffTests", dependencies: ["TestTraits", "ResponseDiff", "JSONSupport"]),
        .testTarget(name: "ExpectationsTests", dependencies: ["TestTraits", "Expectations", "DispatcherCore", "JSONSupport"]),
        .testTarget(name: "TestRunnerTests", dependencies: ["TestTraits", "TestRunner", "Catalog", "Sessions", "DispatcherCore", "TestSupport"]),
        .testTarget(name: "TestReportsTests", dependencies: ["TestTraits", "TestReports", "TestRunner", "Catalog", "Sessions", "DispatcherCore", "SystemSupport", "TestSupport"]),
        .testTarget(name: "DigestAuthTests", dependencies: ["TestTraits", "DigestAuth", "DispatcherCore"]),
        .testTarget(name: "OAuth2Tests", dependencies: ["TestTraits", "OAuth2", "DispatcherCore", "LiveTransport", "TestSupport", .product(name: "NIOHTTP1", package: "swift-nio")]),
        .testTarget(
            name: "LiveTransportTests",
            dependencies: [
                "TestTraits", "LiveTransport", "DispatcherCore", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "TestTraits", "Catalog", "Sessions", "CatalogTestSupport", "DispatcherCore", "Expectations", "JSONSupport", "LiveTransport", "MockServer",
                "SystemSupport", "TestSupport", "YAMLSupport",
            ]
        ),
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "TestTraits", "Sessions", "Catalog", "CatalogTestSupport", "CryptoSupport", "DigestAuth", "DispatcherCore", "JSONSupport", "MockServer",
                "OAuth2", "SystemSupport", "TestSupport",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MockServerTests",
            dependencies: [
                "TestTraits", "MockServer", "Catalog", "Sessions", "CatalogTestSupport", "DispatcherCore", "LiveTransport", "TestSupport",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "CatalogAuthoringTests",
            dependencies: [
                "TestTraits", "CatalogAuthoring", "Catalog", "CatalogTestSupport", "Sessions", "ContractCheck", "DispatcherCore", "JSONSchema", "JSONSupport",
                "RequestExport", "StateStore", "SystemSupport", "TestSupport", "YAMLSupport",
            ]),
        .testTarget(
            name: "StateStoreTests",
            dependencies: ["TestTraits", "StateStore", "Catalog", "Sessions", "CatalogTestSupport", "DispatcherCore", "JSONSupport", "SystemSupport", "TestSupport", "YAMLSupport"]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TestTraits", "TerminalKit"]),
        .testTarget(name: "BodyViewerTests", dependencies: ["TestTraits", "BodyViewer", "JSONSupport"]),
        .testTarget(
            name: "ExplorerAppTests",
            dependencies: [
                "TestTraits", "ExplorerApp", "ExplorerRuntime", "ExplorerTestSupport", "TerminalKit", "BodyViewer", "Catalog", "Sessions", "DispatcherCore", "TestSupport",
            ],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "ExplorerRuntimeTests",
            dependencies: [
                "TestTraits", "ExplorerApp", "ExplorerRuntime", "ExplorerTestSupport", "TerminalKit", "BodyViewer", "Catalog", "CatalogAuthoring", "DispatcherCore",
                "LiveTransport", "Sessions", "StateStore", "TestSupport", "TextSupport",
            ]),
        .testTarget(
            name: "RequestExportTests",
            dependencies: [
                "TestTraits", "RequestExport", "Catalog", "CatalogAuthoring", "CatalogTestSupport", "DispatcherCore", "Sessions", "SystemSupport", "TestSupport",
            ]),
        .testTarget(name: "LoadExportTests", dependencies: ["TestTraits", "LoadExport", "Catalog", "Expectations", "JSONSupport"]),
        .testTarget(name: "DriftCheckTests", dependencies: ["TestTraits", "DriftCheck", "Catalog", "DispatcherCore", "Sessions", "StateStore"]),
        .testTarget(name: "NcursesBackendTests", dependencies: ["TestTraits", "NcursesBackend", "CNcursesw", "TerminalKit"]),
        .testTarget(
            name: "InteropTests",
            dependencies: [
                "TestTraits", "StateStore", "DriftCheck", "CatalogAuthoring", "Catalog", "CatalogTestSupport", "Sessions", "DispatcherCore", "LiveTransport", "TestSupport",
                "SystemSupport", "MockServer", "JSONSupport", "ExplorerApp", "apiexplorer",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "apiexplorerTests", dependencies: ["TestTraits", "apiexplorer", "DispatcherCore", "ExplorerApp", "JSONSupport", "TestSupport"]),
        .testTarget(
            name: "GRPCWireTests",
            dependencies: [
                "TestTraits", "GRPCWire",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]
        ),
        .testTarget(
            name: "GRPCCallsTests",
            dependencies: [
                "TestTraits", "TestSupport", "GRPCCalls", "GRPCTransport", "GRPCWire", "DispatcherCore",
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        .testTarget(
            name: "GRPCReflectionTests",
            dependencies: [
                "TestTraits", "TestSupport", "GRPCReflection", "GRPCCalls", "GRPCTransport", "DispatcherCore",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "GRPCMockTests",
            dependencies: [
                "TestTraits", "TestSupport", "GRPCMock", "GRPCCalls", "GRPCReflection", "GRPCTransport", "GRPCWire", "DispatcherCore", "SystemSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "GRPCDispatchTests",
            dependencies: ["TestTraits", "TestSupport", "SystemSupport", "Catalog", "GRPCMock", "apiexplorer"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["TestTraits", "apiexplorer", "TestSupport", "SystemSupport"]),
        .testTarget(
            name: "ExportedClientTests",
            dependencies: ["TestTraits", "DispatcherCore", "LiveTransport", "TestSupport", "SystemSupport", "apiexplorer", .product(name: "NIOHTTP1", package: "swift-nio")],
            resources: [.copy("Catalog")]
        ),
    ]
)
