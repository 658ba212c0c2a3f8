import Foundation
import PaymentRequest

/// Where the merchant ships, and what is wrong with an address it cannot serve.
struct ShippingRegions: Sendable {
    let regions: [MerchantConfiguration.ShippingRegion]

    init(_ regions: [MerchantConfiguration.ShippingRegion]) { self.regions = regions }

    /// The Apple Pay error for a redacted address, or `nil` when it is served: `shippingContactInvalid` (with the
    /// field) when the country or postal code is missing or malformed, `addressUnserviceable` otherwise.
    func problem(with contact: RedactedContact) -> ApplePayError? {
        guard let country = contact.countryCode else {
            return ApplePayError(code: .shippingContactInvalid, contactField: .countryCode, message: "Enter a country.")
        }
        guard CountryCode.isValid(country) else {
            return ApplePayError(code: .shippingContactInvalid, contactField: .countryCode,
                                 message: "\(country) is not a country code.")
        }
        if regions.isEmpty { return nil }
        let inCountry = regions.filter { $0.countryCode.uppercased() == country }
        guard !inCountry.isEmpty else {
            return ApplePayError(code: .addressUnserviceable, contactField: .countryCode,
                                 message: "We do not ship to this country.")
        }
        let prefixes = inCountry.flatMap { $0.postalCodePrefixes ?? [] }
        if inCountry.contains(where: { ($0.postalCodePrefixes ?? []).isEmpty }) { return nil }
        guard let postalCode = contact.postalCode else {
            return ApplePayError(code: .shippingContactInvalid, contactField: .postalCode, message: "Enter a postal code.")
        }
        let normalized = postalCode.uppercased().filter { !$0.isWhitespace }
        guard prefixes.contains(where: { normalized.hasPrefix($0.uppercased().filter { !$0.isWhitespace }) }) else {
            return ApplePayError(code: .addressUnserviceable, contactField: .postalCode,
                                 message: "We do not deliver to this postal code.")
        }
        return nil
    }
}
