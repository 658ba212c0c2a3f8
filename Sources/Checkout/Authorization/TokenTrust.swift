import Foundation
import PassCrypto
import PaymentToken

/// The verifier (Apple Root CA - G3) and decryptor (payment-processing keys) built from the merchant configuration,
/// plus the development hierarchy and key when development mode is on.
struct TokenTrust: Sendable {
    let verifier: PaymentTokenVerifier
    /// `nil` when no payment-processing key is configured (a processor that forwards the encrypted token).
    let decryptor: PaymentTokenDecryptor?

    /// `nil` when there is nothing to verify against (no root and no development mode).
    init?(merchant: MerchantConfiguration, development: DevelopmentPayments?) throws {
        var roots: [Certificate] = []
        var keys: [MerchantKey] = []
        do {
            if let path = merchant.appleRootCertificatePath { roots += try Certificate.all(fromFile: path) }
        } catch {
            throw CheckoutError.configuration("appleRootCertificatePath", "cannot be read: \(error)")
        }
        for (index, path) in merchant.paymentProcessingKeyPaths.enumerated() {
            do {
                keys.append(try MerchantKey(contentsOf: path))
            } catch {
                throw CheckoutError.configuration("paymentProcessingKeyPaths[\(index)]", "cannot be read: \(error)")
            }
        }
        if let development {
            roots.append(development.root)
            keys.append(development.merchantKey)
        }
        guard !roots.isEmpty else { return nil }
        verifier = PaymentTokenVerifier(configuration: .init(appleRootCertificates: roots))
        decryptor = keys.isEmpty ? nil : PaymentTokenDecryptor(
            merchantKeys: keys, merchantIdentifier: MerchantIdentifier(merchantID: merchant.merchantIdentifier))
    }
}
