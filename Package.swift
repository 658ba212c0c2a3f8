// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Products several targets depend on.
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let nioPosix: Target.Dependency = .product(name: "NIOPosix", package: "swift-nio")
let nioSSL: Target.Dependency = .product(name: "NIOSSL", package: "swift-nio-ssl")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let asyncHTTPClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")

let libraries = [
    "Validation", "Timestamps", "PassModel", "OrderModel", "PassCrypto", "PassBundle", "Barcodes", "PassPreview",
    "PaymentRequest", "PaymentToken", "PassStore", "SQLiteStore", "PostgresStore", "APNs", "PassWebService", "TesseraHTTP",
    "Checkout", "CheckoutPersistence", "TesseraServer", "Webhooks", "GoogleWallet",
]

let package = Package(
    name: "tessera",
    platforms: [.macOS(.v15)],
    // Every library target is a product of its own name.
    products: libraries.map { .library(name: $0, targets: [$0]) } + [.executable(name: "tessera", targets: ["tessera"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // Already in the graph through Hummingbird; named here for NIOHTTPTypes (the server's connection handlers).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // RS256 JWTs for Google Wallet: save links and the service account's OAuth 2.0 token requests.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        // C libraries
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // zint ships no .pc file, so its module map links "zint" directly.
        .systemLibrary(name: "CZint", providers: [.apt(["libzint-dev"]), .brew(["zint"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),
        // Not "CZlib": ZIPFoundation already defines a clang module of that name, and two cannot meet in one build.
        .systemLibrary(name: "CLibz", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // librsvg 2.52+ and cairo: pass previews rasterized from SVG to PNG.
        .systemLibrary(name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),

        // ValidationReport and ValidationIssue, shared by the pass and payment-request validators
        .target(name: "Validation", swiftSettings: swiftSettings),
        // Text escaped for HTML and XML: the payment-sheet previews and the barcode and pass-preview SVGs (pure Swift)
        .target(name: "Markup", swiftSettings: swiftSettings),
        // Dates as text: HTTP dates (RFC 9110) and the Gregorian day arithmetic W3C dates share (pure Swift)
        .target(name: "Timestamps", swiftSettings: swiftSettings),
        // pass.json model, validation, templates and data (no I/O beyond reading a template folder; PNG checksums
        // through PNGEncoding's zlib)
        .target(name: "PassModel", dependencies: ["Validation", "PNGEncoding", "Timestamps"], swiftSettings: swiftSettings),
        // order.json model, validation and templates for Wallet Orders (pure Swift, no C)
        .target(name: "OrderModel", dependencies: ["PassModel", "PaymentRequest"], swiftSettings: swiftSettings),
        // X.509, keys, PKCS#12, CMS signing and verification over OpenSSL 3
        .target(name: "PassCrypto", dependencies: ["COpenSSL", "Validation"], swiftSettings: swiftSettings),
        // .pkpass building, signing, reading and verification; ZIPFoundation reads archives, CLibz gives the writer zlib's CRC-32
        .target(
            name: "PassBundle",
            dependencies: ["PassModel", "OrderModel", "PassCrypto", "CLibz", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),
        // Barcodes (PDF417, Aztec, Code 128 over zint; QR over libqrencode) as module matrices, PNG (zlib) and SVG
        // PNG files from filtered scanlines through zlib (deflate and CRC-32), for barcodes and previews
        .target(name: "PNGEncoding", dependencies: ["CLibz"], swiftSettings: swiftSettings),
        .target(name: "Barcodes", dependencies: ["PassModel", "CZint", "CQRencode", "PNGEncoding", "Markup"], swiftSettings: swiftSettings),
        // Pass previews: a pass drawn as Wallet shows it, as SVG (pure Swift) and PNG (librsvg + cairo)
        .target(name: "PassPreview", dependencies: ["PassModel", "OrderModel", "PaymentRequest", "Barcodes", "CRsvg", "PNGEncoding", "Markup"], swiftSettings: swiftSettings),

        // Apple Pay payment requests: model, builder, validation, sheet preview (pure Swift, no C)
        .target(name: "PaymentRequest", dependencies: ["Validation", "Markup"], swiftSettings: swiftSettings),

        // Apple Pay payment tokens: signature verification (CMS over OpenSSL) and EC_v1 / RSA_v1 decryption (swift-crypto);
        // JSON through PassModel's JSONValue, the one JSON value type
        .target(
            name: "PaymentToken",
            dependencies: [
                "PassCrypto", "COpenSSL", "PassModel", "Validation", crypto,
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),

        // Pass web service storage: the protocol and an in-memory store; SQLite (GRDB) and PostgreSQL (postgres-nio)
        .target(
            name: "PassStore", dependencies: [crypto],
            swiftSettings: swiftSettings
        ),
        // Google Wallet: Tessera passes as Google classes and objects, checked against Google's published schema;
        // save links signed with a service account
        .target(
            name: "GoogleWallet",
            dependencies: [
                "PassModel", "Validation", .product(name: "JWTKit", package: "jwt-kit"),
                crypto, asyncHTTPClient,
                nioCore, .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"), nioSSL,
            ],
            swiftSettings: swiftSettings
        ),
        // Event webhooks: signed posts of the event log to an issuer's endpoint, the signature shared with checkout
        .target(
            name: "Webhooks",
            dependencies: [
                "PassStore", "PassCrypto", crypto, asyncHTTPClient, nioCore, nioPosix,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                logging, metrics, serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SQLiteStore",
            dependencies: [
                "PassStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostgresStore",
            dependencies: [
                "PassStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                logging, metrics, serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        // APNs over HTTP/2 (async-http-client): certificate or token (ES256 JWT) authentication
        .target(
            name: "APNs",
            dependencies: [
                "Timestamps", nioSSL, nioCore, nioPosix,
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                crypto, logging, serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        // Signing identities of one server: the identities file, each identity's credentials and expiry
        .target(
            name: "SigningIdentities",
            dependencies: ["PassBundle", "PassCrypto", "PassModel"],
            swiftSettings: swiftSettings
        ),
        // The wallet service: pass and order issuers (templates, signing, versions), what the device protocol asks of
        // them, and the push dispatcher. No web framework: TesseraHTTP serves it
        .target(
            name: "PassWebService",
            dependencies: [
                "PassModel", "PassBundle", "PassCrypto", "PassStore", "Timestamps", "OrderModel", "Validation", "PassPreview",
                nioPosix,
                .product(name: "HTTPTypes", package: "swift-http-types"),
                nioCore, logging, metrics, serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        // Merchant checkout: sessions, Apple Pay sheet updates, merchant validation, token authorization, orders, sheet page
        .target(
            name: "Checkout",
            dependencies: [
                "PaymentRequest", "PaymentToken", "PassStore", "PassModel", "OrderModel", "PassCrypto", "Markup", "Webhooks",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                asyncHTTPClient, nioSSL, nioCore, crypto, logging, serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        // The one HTTP layer: Hummingbird routes of every service (Apple's device protocol for passes and orders, the
        // download links, the issuer API, the checkout API and pages), the request context, the error envelope and
        // the JSON body rules. Services below it know nothing of the web framework.
        .target(
            name: "TesseraHTTP",
            dependencies: [
                "PassWebService", "Checkout", "PaymentRequest", "PassStore", "PassModel", "PassCrypto", "Timestamps",
                "Barcodes", "Markup", hummingbird, crypto,
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                nioCore, logging,
            ],
            swiftSettings: swiftSettings
        ),
        // Checkout sessions, transaction identifiers and orders in the pass web service's SQLite or PostgreSQL database
        .target(
            name: "CheckoutPersistence",
            dependencies: [
                "Checkout", "SQLiteStore", "PostgresStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                logging,
            ],
            swiftSettings: swiftSettings
        ),
        // The server that composes the services: configuration, stores, metrics, lifecycle (`tessera serve`)
        .target(
            name: "TesseraServer",
            dependencies: [
                "PassWebService", "Checkout", "CheckoutPersistence", "PassStore", "SQLiteStore", "PostgresStore", "APNs", "PassBundle", "TesseraHTTP",
                "Webhooks", "SigningIdentities", "GoogleWallet", "PassModel", crypto, hummingbird, nioCore, nioPosix,
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                logging, metrics,
                .product(name: "Prometheus", package: "swift-prometheus"),
                serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),

        // Executables
        .executableTarget(
            name: "tessera",
            dependencies: [
                "PassModel", "OrderModel", "PassCrypto", "PassBundle", "Barcodes", "PassPreview", "PaymentRequest", "PaymentToken",
                "TesseraServer", "TesseraHTTP", "PassWebService", "APNs", "Checkout", "Webhooks", "SigningIdentities", "GoogleWallet",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                nioCore, nioPosix,
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                logging, metrics,
                .product(name: "Prometheus", package: "swift-prometheus"),
                serviceLifecycle, asyncHTTPClient,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                crypto,
            ],
            swiftSettings: swiftSettings
        ),
        // Benchmarks: not a product, so library users never build it (`swift run -c release tessera-bench`).
        .executableTarget(
            name: "tessera-bench",
            dependencies: [
                "PassModel", "PassCrypto", "PassBundle", "Barcodes", "CZint", "PassPreview", "PaymentRequest",
                "PassStore", "SQLiteStore", "PaymentToken", "OrderModel", "APNs", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                logging, hummingbird, nioCore, nioPosix,
            ],
            swiftSettings: swiftSettings
        ),

        // Tests
        // Starting test programs with posix_spawn, in a module of its own: spawn.h's declarations change which module
        // the C library's shared structures (timespec, timeval) are attributed to, for every file of the module
        // that uses them.
        .target(name: "TestChildProcess", path: "Tests/TestChildProcess", swiftSettings: swiftSettings),
        .target(
            name: "TesseraTestSupport",
            dependencies: [
                "TestChildProcess", "PassCrypto", "PassModel", "PostgresStore", logging, nioCore, nioPosix, asyncHTTPClient,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"), .product(name: "NIOHPACK", package: "swift-nio-http2"),
                nioSSL, .product(name: "NIOTLS", package: "swift-nio"),
                hummingbird,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/TesseraTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PassModelTests", dependencies: ["PassModel", "PNGEncoding"], swiftSettings: swiftSettings),
        .testTarget(
            name: "GoogleWalletTests",
            dependencies: ["GoogleWallet", "PassModel", "TesseraTestSupport", crypto],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "OrderModelTests", dependencies: ["OrderModel", "PassModel", "PNGEncoding"], swiftSettings: swiftSettings),
        .testTarget(name: "TimestampsTests", dependencies: ["Timestamps"], swiftSettings: swiftSettings),
        .testTarget(name: "MarkupTests", dependencies: ["Markup"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PaymentRequestTests",
            dependencies: ["PaymentRequest", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassBundleTests",
            dependencies: ["PassModel", "OrderModel", "PassCrypto", "PassBundle", "TesseraTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BarcodeTests",
            dependencies: ["Barcodes", "PassModel", "tessera", "TesseraTestSupport"],
            exclude: ["decode.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassPreviewTests",
            dependencies: ["PassPreview", "PassModel", "Validation", "tessera", "TesseraTestSupport"],
            exclude: ["pixels.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PaymentTokenTests",
            dependencies: ["PaymentToken", "PassModel", "PassCrypto", "tessera", "TesseraTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassStoreTests",
            dependencies: [
                "PassStore", "SQLiteStore", "PostgresStore", "TesseraTestSupport", logging,
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsTests",
            dependencies: [
                "APNs", "PassCrypto", "TesseraTestSupport",
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                nioCore,
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                crypto, nioSSL, nioPosix, logging,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassWebServiceTests",
            dependencies: [
                "PassWebService", "TesseraHTTP", "TesseraServer", "PassStore", "PassBundle", "PassCrypto", "PassModel", "APNs", "tessera",
                "TesseraTestSupport", "GoogleWallet", "Timestamps",
                .product(name: "Prometheus", package: "swift-prometheus"),
                hummingbird,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                asyncHTTPClient, logging,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CheckoutTests",
            dependencies: [
                "Checkout", "TesseraServer", "PaymentRequest", "PaymentToken", "PassWebService", "TesseraHTTP", "PassCrypto", "tessera",
                "TesseraTestSupport", "PassBundle", "PassStore", "PassModel", "OrderModel",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                hummingbird,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                asyncHTTPClient, nioSSL, crypto, logging, serviceLifecycle,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CheckoutPersistenceTests",
            dependencies: [
                "CheckoutPersistence", "Checkout", "SQLiteStore", "PostgresStore", "PassStore", "PaymentRequest",
                "TesseraTestSupport", logging,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "tessera", "TesseraTestSupport", "PassStore", "SQLiteStore", "PostgresStore", "Webhooks", "PassCrypto",
                logging,
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

