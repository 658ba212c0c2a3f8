// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "tessera",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Validation", targets: ["Validation"]),
        .library(name: "PassModel", targets: ["PassModel"]),
        .library(name: "PassCrypto", targets: ["PassCrypto"]),
        .library(name: "PassBundle", targets: ["PassBundle"]),
        .library(name: "Barcodes", targets: ["Barcodes"]),
        .library(name: "PassPreview", targets: ["PassPreview"]),
        .library(name: "PaymentRequest", targets: ["PaymentRequest"]),
        .executable(name: "tessera", targets: ["tessera"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
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
        // pass.json model, validation, templates and data (no C, no I/O beyond reading a template folder)
        .target(name: "PassModel", dependencies: ["Validation"], swiftSettings: swiftSettings),
        // X.509, keys, PKCS#12, CMS signing and verification over OpenSSL 3
        .target(name: "PassCrypto", dependencies: ["COpenSSL"], swiftSettings: swiftSettings),
        // .pkpass building, signing, reading and verification
        .target(
            name: "PassBundle",
            dependencies: ["PassModel", "PassCrypto", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),
        // Barcodes (PDF417, Aztec, Code 128 over zint; QR over libqrencode) as module matrices, PNG (zlib) and SVG
        // PNG files from filtered scanlines through zlib (deflate and CRC-32), for barcodes and previews
        .target(name: "PNGEncoding", dependencies: ["CLibz"], swiftSettings: swiftSettings),
        .target(name: "Barcodes", dependencies: ["PassModel", "CZint", "CQRencode", "PNGEncoding"], swiftSettings: swiftSettings),
        // Pass previews: a pass drawn as Wallet shows it, as SVG (pure Swift) and PNG (librsvg + cairo)
        .target(name: "PassPreview", dependencies: ["PassModel", "Barcodes", "CRsvg", "PNGEncoding"], swiftSettings: swiftSettings),

        // Apple Pay payment requests: model, builder, validation, sheet preview (pure Swift, no C)
        .target(name: "PaymentRequest", dependencies: ["Validation"], swiftSettings: swiftSettings),

        // Executables
        .executableTarget(
            name: "tessera",
            dependencies: [
                "PassModel", "PassCrypto", "PassBundle", "Barcodes", "PassPreview", "PaymentRequest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ],
            swiftSettings: swiftSettings
        ),
        // Benchmarks: not a product, so library users never build it (`swift run -c release tessera-bench`).
        .executableTarget(
            name: "tessera-bench",
            dependencies: [
                "PassModel", "PassCrypto", "PassBundle", "Barcodes", "CZint", "PassPreview", "PaymentRequest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // Tests
        .target(
            name: "TesseraTestSupport",
            dependencies: ["PassCrypto"],
            path: "Tests/TesseraTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PassModelTests", dependencies: ["PassModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PaymentRequestTests",
            dependencies: ["PaymentRequest", .product(name: "PropertyBased", package: "swift-property-based")],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassBundleTests",
            dependencies: ["PassModel", "PassCrypto", "PassBundle", "TesseraTestSupport"],
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
            dependencies: ["PassPreview", "PassModel", "tessera", "TesseraTestSupport"],
            exclude: ["pixels.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["tessera", "TesseraTestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)
