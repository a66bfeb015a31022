// swift-tools-version:6.2
import PackageDescription

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
        .library(name: "Catalog", targets: ["Catalog"]),
        .library(name: "TerminalKit", targets: ["TerminalKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
    ],
    targets: [
        // MARK: Networking
        .target(name: "JSONSupport"),
        .target(
            name: "DispatcherCore",
            dependencies: [
                "JSONSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "LiveTransport",
            dependencies: [
                "DispatcherCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: Catalogs
        .target(
            name: "Catalog",
            dependencies: [
                "DispatcherCore",
                "JSONSupport",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "MockServer",
            dependencies: [
                "Catalog",
                "DispatcherCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Terminal user interface
        .target(name: "TerminalKit"),
        .target(name: "BodyViewer", dependencies: ["JSONSupport"]),
        .target(
            name: "ExplorerApp",
            dependencies: ["TerminalKit", "BodyViewer", "DispatcherCore", "Catalog", "JSONSupport"]
        ),
        .target(
            name: "ExplorerRuntime",
            dependencies: ["ExplorerApp", "TerminalKit", "DispatcherCore", "LiveTransport", "Catalog", "Interop"]
        ),
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        .target(name: "NcursesBackend", dependencies: ["CNcursesw", "TerminalKit"]),

        // MARK: Command line and interop
        .target(
            name: "Interop",
            dependencies: [
                "DispatcherCore",
                "Catalog",
                "JSONSupport",
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "apiexplorer",
            dependencies: [
                "DispatcherCore", "LiveTransport", "Catalog", "MockServer", "ExplorerApp",
                "ExplorerRuntime", "NcursesBackend", "TerminalKit", "Interop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "DispatcherCore", "LiveTransport", "Catalog", "BodyViewer", "ExplorerApp",
                "ExplorerRuntime", "TerminalKit", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Test support and tests
        .target(
            name: "TestSupport",
            dependencies: [
                "DispatcherCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ],
            resources: [.copy("Certificates")]
        ),
        .testTarget(name: "JSONSupportTests", dependencies: ["JSONSupport"]),
        .testTarget(name: "DispatcherCoreTests", dependencies: ["DispatcherCore", "TestSupport"]),
        .testTarget(name: "LiveTransportTests", dependencies: ["LiveTransport", "DispatcherCore", "TestSupport"]),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "Catalog", "DispatcherCore", "MockServer", "LiveTransport", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
        .testTarget(name: "BodyViewerTests", dependencies: ["BodyViewer"]),
        .testTarget(
            name: "ExplorerAppTests", dependencies: ["ExplorerApp", "ExplorerRuntime", "TerminalKit", "Catalog", "DispatcherCore", "TestSupport"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "InteropTests",
            dependencies: ["Interop", "Catalog", "DispatcherCore", "LiveTransport", "TestSupport", "MockServer", "JSONSupport", "apiexplorer"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["apiexplorer", "TestSupport"]),
    ]
)
