// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "dyn",
    products: [
        .library(name: "Dynamics", targets: ["Dynamics"]),
        .library(name: "NetProtocol", targets: ["NetProtocol"]),
        .library(name: "NetLoop", targets: ["NetLoop"]),
        .executable(name: "dynserver", targets: ["dynserver"]),
        .executable(name: "dynclient", targets: ["dynclient"]),
        .executable(name: "dynbench", targets: ["dynbench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"]), .brew(["libuv"])]
        ),
        // http-parser and wslay ship no pkg-config files on Debian: their module maps link them by name.
        .systemLibrary(name: "CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
        .systemLibrary(name: "CWslay", providers: [.apt(["libwslay-dev"])]),
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        // Part J (docs/DEPLOY.md): Redis through hiredis' libuv adapter, the Agones SDK through libcurl's multi API.
        // No pkgConfig: hiredis.pc adds -D_FILE_OFFSET_BITS=64, a flag SwiftPM refuses with a warning; the shim
        // includes <hiredis/...> from /usr/include and the module map links hiredis by name.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "Dynamics"),
        // The wire contract and its codecs: pure Swift over wslay, nettle and http-parser, no event loop, so a
        // room (DynRoom) can use it on a worker thread.
        .target(name: "NetProtocol", dependencies: ["CHTTPParser", "CWslay", "CNettle"]),
        // Thin Swift owners of libuv handles (the loop thread's side): only the fronts and tools link libuv.
        .target(
            name: "NetLoop",
            dependencies: [
                "CLibUV", "NetProtocol",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // A room and its world (docs/ARCHITECTURE.md, Rooms and threads): no sockets, no loop, so a worker
        // thread may run it and a test may drive it alone.
        .target(
            name: "DynRoom",
            dependencies: [
                "Dynamics", "NetProtocol",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "dynserver",
            dependencies: [
                "Dynamics", "NetProtocol", "NetLoop", "DynRoom", "CLibUV", "CHiredis", "CCurl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The page (web/) compiled into the binary: docs/ARCHITECTURE.md, "The page".
            plugins: ["EmbedWeb"]
        ),
        .executableTarget(name: "EmbedWebTool"),
        .plugin(name: "EmbedWeb", capability: .buildTool(), dependencies: ["EmbedWebTool"]),
        .executableTarget(
            name: "dynclient",
            dependencies: [
                "NetProtocol", "NetLoop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "dynbench",
            dependencies: [
                "Dynamics", "NetProtocol", "NetLoop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .testTarget(name: "DynamicsTests", dependencies: ["Dynamics"]),
        .testTarget(name: "NetProtocolTests", dependencies: ["NetProtocol", "NetLoop", "CLibUV"]),
        .testTarget(name: "DynServerTests", dependencies: ["dynserver", "DynRoom", "Dynamics", "NetProtocol", "NetLoop"]),
        .testTarget(name: "DynClientTests", dependencies: ["dynclient", "NetProtocol", "NetLoop"]),
        .testTarget(name: "EndToEndTests", dependencies: ["NetProtocol", "CLibUV", "CWslay"]),
    ],
    swiftLanguageModes: [.v6]
)
