import Foundation

extension MerchantConfiguration {
    /// How buyers without Apple Pay pay on the sheet: `paymentStep` in the merchant configuration.
    ///
    /// The sheet loads the merchant's script, which mounts the gateway's hosted card element (the card number is typed
    /// into the gateway's own frame, never into Tessera's page) and registers itself with
    /// `TesseraSheet.registerPaymentStep`. On Pay it hands the sheet the gateway's single-use token for the card,
    /// which `authorize` passes to the configured ``PaymentProcessorConfiguration`` as `cardPayment`.
    public struct PaymentStepConfiguration: Codable, Sendable, Equatable {
        /// The kind of step.
        public enum Kind: String, Codable, Sendable {
            /// A gateway's hosted card element, mounted by the merchant's script.
            case hostedCard
        }

        /// The kind.
        public var kind: Kind
        /// The merchant's script that mounts the element and registers the step: `https`, or `http` to a loopback
        /// host (development).
        public var scriptURL: String
        /// Further origins the gateway's element loads from or talks to (`https://js.gateway.example`); the sheet's
        /// content security policy allows them and the script's own origin, and nothing else.
        public var origins: [String]?

        /// Creates a payment step.
        /// - Parameters:
        ///   - kind: The kind.
        ///   - scriptURL: The merchant's script.
        ///   - origins: Further origins the element uses.
        public init(kind: Kind = .hostedCard, scriptURL: String, origins: [String]? = nil) {
            self.kind = kind
            self.scriptURL = scriptURL
            self.origins = origins
        }

        /// Checks the script URL and the origins.
        /// - Throws: ``CheckoutError`` (`invalidConfiguration`) naming the key.
        public func validate() throws {
            guard Self.origin(of: scriptURL, allowPath: true) != nil else {
                throw CheckoutError.configuration(
                    "paymentStep.scriptURL",
                    "must be an https URL (plain http only to a loopback host, for development), such as "
                        + "https://shop.example.com/checkout/card-step.js")
            }
            for (index, origin) in (origins ?? []).enumerated() where Self.origin(of: origin, allowPath: false) == nil {
                throw CheckoutError.configuration(
                    "paymentStep.origins[\(index)]",
                    "must be an origin such as https://js.gateway.example: https (http only to a loopback host), a "
                        + "host name and an optional port, no path")
            }
        }

        /// The script's origin and the configured ones, as the content security policy lists them.
        public var allowedOrigins: [String] {
            var all: [String] = []
            for origin in [Self.origin(of: scriptURL, allowPath: true)] + (origins ?? []).map({ Self.origin(of: $0, allowPath: false) }) {
                if let origin, !all.contains(origin) { all.append(origin) }
            }
            return all
        }

        /// `scheme://host[:port]` of a URL that is https (or http to a loopback host) with a plain host name; `nil`
        /// otherwise, so nothing but these characters reaches the page's security policy.
        static func origin(of text: String, allowPath: Bool) -> String? {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
                  let host = url.host?.lowercased(), !host.isEmpty,
                  url.user == nil, url.password == nil, url.query == nil, url.fragment == nil
            else { return nil }
            if !allowPath && !(url.path.isEmpty || url.path == "/") { return nil }
            if allowPath && (url.path.isEmpty || url.path == "/") { return nil }
            let plain = host.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || ("a"..."z").contains($0)
                || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
            let loopback = ["127.0.0.1", "localhost"].contains(host)
            guard plain, scheme == "https" || (scheme == "http" && loopback) else { return nil }
            return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
    }
}
