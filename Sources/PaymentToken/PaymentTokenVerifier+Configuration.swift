public import Foundation
internal import PassCrypto

extension PaymentTokenVerifier.Configuration {
    /// Reads the trusted root from a PEM (or DER) file, such as Apple Root CA - G3 downloaded from
    /// https://www.apple.com/certificateauthority/ (a PEM file may hold several roots).
    /// - Parameters:
    ///   - appleRootPath: The root certificate file.
    ///   - signingTimeTolerance: The accepted distance between signing time and now (default 5 minutes).
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidConfiguration``.
    public init(appleRootPath: String, signingTimeTolerance: TimeInterval = 300) throws {
        do {
            self.init(appleRootCertificates: try Certificate.all(fromFile: appleRootPath),
                      signingTimeTolerance: signingTimeTolerance)
        } catch let error as CryptoError {
            throw PaymentTokenError(.invalidConfiguration, error.reason)
        }
    }
}
