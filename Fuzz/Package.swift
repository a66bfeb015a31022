// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets (Linux): build with `scripts/fuzz`, which passes -sanitize=fuzzer. Each target
// feeds one parser of the main package, imported `@testable` (its modules declare little or nothing
// `public`); seed corpora are in Corpus/<target>/.
let package = Package(
    name: "apiexplorer-fuzz",
    dependencies: [.package(name: "apiexplorer", path: "..")],
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
    ]
)
