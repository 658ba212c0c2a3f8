// swift-tools-version:6.0
// The device endpoints of Apple's pass web service two ways over one SQLite store, for measuring what handlers
// generated from the OpenAPI document cost next to the hand-written routes (scripts/bench-openapi-handlers.sh).
// A package of its own, so the generator plugin never enters the main package's build.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenAPIHandlers",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The main package by its manifest name, whatever its checkout folder is called.
        .package(name: "tessera", path: "../.."),
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The three measured device operations: types and server stubs generated from openapi.json, and their
        // implementation over the pass issuer and its store.
        .target(
            name: "DeviceAPI",
            dependencies: [
                .product(name: "PassWebService", package: "tessera"),
                .product(name: "TesseraHTTP", package: "tessera"),
                .product(name: "PassStore", package: "tessera"),
                .product(name: "SQLiteStore", package: "tessera"),
                .product(name: "PassBundle", package: "tessera"),
                .product(name: "PassCrypto", package: "tessera"),
                .product(name: "Timestamps", package: "tessera"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "openapi-handlers",
            dependencies: [
                "DeviceAPI",
                .product(name: "PassWebService", package: "tessera"),
                .product(name: "PassBundle", package: "tessera"),
                .product(name: "SQLiteStore", package: "tessera"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OpenAPIHandlersTests",
            dependencies: [
                "DeviceAPI",
                .product(name: "PassWebService", package: "tessera"),
                .product(name: "PassStore", package: "tessera"),
                .product(name: "SQLiteStore", package: "tessera"),
                .product(name: "PassCrypto", package: "tessera"),
                .product(name: "PassBundle", package: "tessera"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
