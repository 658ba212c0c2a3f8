public import Logging
public import NIOSSL

extension MerchantValidator {
    /// Creates a validator from a merchant configuration's identity, names, initiative and allowed hosts.
    /// - Parameters:
    ///   - merchant: The configuration (its `merchantIdentity` must be set).
    ///   - logger: The logger.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the identity is missing or unreadable.
    public convenience init(merchant: MerchantConfiguration, logger: Logger) throws {
        try self.init(merchant: merchant, trustRoots: nil, endpointOverrides: [:], logger: logger)
    }

    /// As ``init(merchant:logger:)``, connecting to a stand-in of Apple's endpoint: for tests only. Not public API:
    /// `@_spi(Testing) import Checkout`.
    /// - Parameters:
    ///   - merchant: The configuration (its `merchantIdentity` must be set).
    ///   - trustRoots: Roots to trust instead of the system's.
    ///   - endpointOverrides: Host → authority (`localhost:8443`) actually connected to.
    ///   - logger: The logger.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the identity is missing or unreadable.
    @_spi(Testing) public convenience init(merchant: MerchantConfiguration, trustRoots: [NIOSSLCertificate]?,
                                           endpointOverrides: [String: String], logger: Logger) throws {
        guard let identity = merchant.merchantIdentity else {
            throw CheckoutError.configuration("merchantIdentity", "is required for merchant validation")
        }
        var configuration = Configuration(
            merchantIdentifier: merchant.merchantIdentifier, displayName: merchant.displayName,
            initiative: merchant.initiative, initiativeContext: merchant.initiativeContext ?? "",
            allowedHosts: merchant.merchantValidationHosts)
        configuration.endpointOverrides = endpointOverrides
        try self.init(configuration: configuration, certificatePath: identity.certificatePath, keyPath: identity.keyPath,
                      trustRoots: trustRoots, logger: logger)
    }

    /// A validator for the merchant's identity, or `nil` when `merchantIdentity` is not configured.
    /// - Parameters:
    ///   - merchant: The configuration.
    ///   - logger: The logger.
    /// - Returns: The validator (run it as a service, or call ``shutdown()``), or `nil`.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the identity cannot be read.
    public static func ifConfigured(merchant: MerchantConfiguration, logger: Logger) throws -> MerchantValidator? {
        guard merchant.merchantIdentity != nil else { return nil }
        return try MerchantValidator(merchant: merchant, logger: logger)
    }
}
