public import Logging
public import NIOSSL

extension MerchantValidator {
    /// Creates a validator from a merchant configuration's identity, names, initiative and allowed hosts.
    /// - Parameters:
    ///   - merchant: The configuration (its `merchantIdentity` must be set).
    ///   - trustRoots: Roots to trust instead of the system's (tests).
    ///   - endpointOverrides: Test-only host → authority redirects.
    ///   - logger: The logger.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) when the identity is missing or unreadable.
    public convenience init(merchant: MerchantConfiguration, trustRoots: [NIOSSLCertificate]? = nil,
                            endpointOverrides: [String: String] = [:], logger: Logger) throws {
        guard let identity = merchant.merchantIdentity else {
            throw CheckoutError.configuration("merchantIdentity", "is required for merchant validation")
        }
        let configuration = Configuration(
            merchantIdentifier: merchant.merchantIdentifier, displayName: merchant.displayName,
            initiative: merchant.initiative, initiativeContext: merchant.initiativeContext ?? "",
            allowedHosts: merchant.merchantValidationHosts, endpointOverrides: endpointOverrides)
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
