// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets (Linux): build with `scripts/fuzz`, which passes -sanitize=fuzzer. Each target
// feeds one parser of the main package, imported `@testable` (its modules declare little or nothing
// `public`); seed corpora are in Corpus/<target>/.
let package = Package(
    name: "apiexplorer-fuzz",
    dependencies: [
        .package(name: "apiexplorer", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzCatalog", dependencies: ["FuzzDriver", .product(name: "Catalog", package: "apiexplorer")]),
        .executableTarget(name: "FuzzLaunchIndex", dependencies: ["FuzzDriver", .product(name: "Catalog", package: "apiexplorer")]),
        .executableTarget(name: "FuzzYAML", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzJSONSchema", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzBodyViewer", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzCurl", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(
            name: "FuzzHTTPResponse",
            dependencies: ["FuzzDriver", .product(name: "LiveTransport", package: "apiexplorer"), .product(name: "DispatcherCore", package: "apiexplorer")]),
        .executableTarget(name: "FuzzEventStream", dependencies: ["FuzzDriver", .product(name: "DispatcherCore", package: "apiexplorer")]),
        .executableTarget(name: "FuzzOpenAPI", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzGraphQL", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzMultipart", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzImports", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        .executableTarget(name: "FuzzProtoJSON", dependencies: ["FuzzDriver", .product(name: "FuzzedModules", package: "apiexplorer")]),
        // A product of its own: GRPCWire pulls in SwiftNIO and swift-protobuf, which the parsers' targets need not build for the fuzzer.
        .executableTarget(
            name: "FuzzGRPCWire",
            dependencies: [
                "FuzzDriver", .product(name: "FuzzedGRPCModules", package: "apiexplorer"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]),
    ]
)
