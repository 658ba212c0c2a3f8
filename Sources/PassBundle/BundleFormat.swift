public import PassCrypto

/// What tells a pass bundle from an order bundle: the JSON file at its root, the file extension, the hash in
/// `manifest.json` and the media type. Everything else (a ZIP of files at the root and in `xx.lproj/` folders,
/// `manifest.json`, a detached CMS `signature` over it) is the same for both, and shared.
public struct BundleFormat: Sendable, Hashable {
    /// `pass` or `order`, for messages.
    public let noun: String
    /// The file extension without the dot: `pkpass`, `order`.
    public let fileExtension: String
    /// The JSON file at the root: `pass.json`, `order.json`.
    public let mainFile: String
    /// The hash `manifest.json` lists.
    public let digest: DigestAlgorithm
    /// The HTTP media type.
    public let mediaType: String

    /// A `.pkpass`: `pass.json`, SHA-1 manifest.
    public static let pass = BundleFormat(noun: "pass", fileExtension: "pkpass", mainFile: "pass.json", digest: .sha1,
                                          mediaType: "application/vnd.apple.pkpass")
    /// A Wallet order package: `order.json`, SHA-256 manifest.
    public static let order = BundleFormat(noun: "order", fileExtension: "order", mainFile: "order.json", digest: .sha256,
                                           mediaType: "application/vnd.apple.finance.order")

    /// The names a bundle's content files may not have: the main JSON file, `manifest.json` and `signature`.
    public var reservedNames: Set<String> { [mainFile, "manifest.json", "signature"] }
}
