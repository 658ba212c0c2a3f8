public import Foundation

extension MerchantConfiguration {
    /// Who charges verified payments: `paymentProcessor` in the merchant configuration.
    public struct PaymentProcessorConfiguration: Codable, Sendable, Equatable {
        /// The kind of processor.
        public enum Kind: String, Codable, Sendable {
            /// POST the decrypted payment to the merchant's endpoint, signed.
            case webhook
            /// POST the encrypted Apple Pay token to the merchant's endpoint, signed (the gateway decrypts it).
            case forwardToken
            /// Approve and record everything in memory (``RecordingPaymentProcessor``); only with `developmentMode`.
            case development
        }

        /// The kind.
        public var kind: Kind
        /// The endpoint (`webhook`, `forwardToken`): `https`, or `http` to a loopback host.
        public var url: String?
        /// A file holding the signing secret (`webhook`, `forwardToken`), relative to the configuration file.
        public var secretFile: String?
        /// Seconds each call may take (default 10, 1 to 120).
        public var timeoutSeconds: Int?

        /// Creates a processor configuration.
        /// - Parameters:
        ///   - kind: The kind.
        ///   - url: The endpoint.
        ///   - secretFile: The secret's file.
        ///   - timeoutSeconds: Seconds per call.
        public init(kind: Kind, url: String? = nil, secretFile: String? = nil, timeoutSeconds: Int? = nil) {
            self.kind = kind
            self.url = url
            self.secretFile = secretFile
            self.timeoutSeconds = timeoutSeconds
        }

        /// Checks the endpoint, secret file and timeout for the kind.
        /// - Parameter developmentMode: Whether the merchant runs in development mode.
        /// - Throws: ``CheckoutError`` (`invalidConfiguration`) naming the key.
        public func validate(developmentMode: Bool) throws {
            func fail(_ key: String, _ reason: String) -> CheckoutError {
                CheckoutError.configuration("paymentProcessor.\(key)", reason)
            }
            switch kind {
            case .development:
                guard developmentMode else {
                    throw fail("kind", "\"development\" approves every payment: allowed only with \"developmentMode\": true")
                }
            case .webhook, .forwardToken:
                guard let url, let parsed = URLComponents(string: url), let host = parsed.host, !host.isEmpty else {
                    throw fail("url", "is required: the merchant's endpoint, such as https://shop.example.com/pay")
                }
                let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
                guard parsed.scheme == "https" || (parsed.scheme == "http" && loopback) else {
                    throw fail("url", "must be https (plain http only to a loopback host, for development)")
                }
                guard secretFile?.isEmpty == false else {
                    throw fail("secretFile", "is required: a file holding the secret requests are signed with")
                }
                if let timeoutSeconds, !(1...120).contains(timeoutSeconds) {
                    throw fail("timeoutSeconds", "must be 1 to 120")
                }
            }
        }

        /// The signing secret: the secret file's contents without surrounding white space.
        /// - Returns: The secret's bytes.
        /// - Throws: ``CheckoutError`` when it cannot be read or is shorter than 16 characters.
        public func secret() throws -> Data {
            guard let secretFile, let text = try? String(contentsOfFile: secretFile, encoding: .utf8) else {
                throw CheckoutError.configuration("paymentProcessor.secretFile", "cannot be read")
            }
            let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret.count >= 16 else {
                throw CheckoutError.configuration("paymentProcessor.secretFile", "must hold at least 16 characters")
            }
            return Data(secret.utf8)
        }
    }
}
