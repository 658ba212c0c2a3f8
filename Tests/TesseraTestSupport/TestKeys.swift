public import PassCrypto

/// RSA keys generated once per test process (by the first test that asks) and shared by the chains and certificates
/// tests issue over them.
public enum TestKeys {
    private static let chainKeys = Result { try DevelopmentChain.Keys.generate() }
    private static let orderKey = Result { try PrivateKey.generateRSA(bits: 2048) }

    /// The keys of a ``TestChain`` made without `freshKeys`.
    /// - Returns: The keys.
    public static func chain() throws -> DevelopmentChain.Keys { try chainKeys.get() }

    /// The key of the Order Type ID certificates tests issue from a ``TestChain``.
    /// - Returns: The key.
    public static func order() throws -> PrivateKey { try orderKey.get() }
}
