internal import Crypto
public import Foundation
import PassCrypto

extension ApplePayPaymentToken {
    /// Whether `header.applicationData` is the SHA-256 of `applicationData` (the `applicationData` the app set on its
    /// `PKPaymentRequest`, or the `applicationData` of an `ApplePayPaymentRequest` on the web).
    /// - Parameter applicationData: The expected application data.
    /// - Returns: `true` when the token carries its hash.
    public func matchesApplicationData(_ applicationData: Data) -> Bool {
        header.applicationData == Data(SHA256.hash(data: applicationData))
    }

    /// Checks that `header.applicationData` is the SHA-256 of `applicationData`.
    /// - Parameter applicationData: The expected application data.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/applicationDataMismatch``.
    public func verifyApplicationData(_ applicationData: Data) throws {
        try verifyApplicationData(hash: Data(SHA256.hash(data: applicationData)))
    }

    /// Checks that `header.applicationData` equals `hash`.
    /// - Parameter hash: The expected 32-byte SHA-256 of the application data.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/applicationDataMismatch``.
    public func verifyApplicationData(hash: Data) throws {
        guard let actual = header.applicationData else {
            throw PaymentTokenError(.applicationDataMismatch, "header.applicationData: is missing, but application data "
                                        + "was expected", field: "header.applicationData")
        }
        guard actual == hash else {
            throw PaymentTokenError(.applicationDataMismatch, "header.applicationData: \(Hex.encode(actual)) is not the "
                                        + "SHA-256 of the expected application data (\(Hex.encode(hash)))",
                                    field: "header.applicationData")
        }
    }
}
