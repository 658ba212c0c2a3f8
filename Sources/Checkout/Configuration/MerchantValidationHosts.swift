public import Foundation
import HTTPTypes

/// The hosts merchant validation may call, and the check a `validationURL` must pass before any connection is made.
public enum MerchantValidationHosts {
    /// Apple's documented Apple Pay gateway hosts: production (global and China), the per-pod hosts and the sandbox
    /// (`-cert`) hosts. See "Setting Up Your Server" in Apple Pay on the Web.
    public static let appleDefaults: [String] = {
        var hosts = ["apple-pay-gateway.apple.com", "cn-apple-pay-gateway.apple.com"]
        hosts += (1...5).map { "apple-pay-gateway-nc-pod\($0).apple.com" }
        hosts += (1...5).map { "apple-pay-gateway-pr-pod\($0).apple.com" }
        hosts += (1...3).map { "cn-apple-pay-gateway-sh-pod\($0).apple.com" }
        hosts += (1...3).map { "cn-apple-pay-gateway-tj-pod\($0).apple.com" }
        hosts += ["apple-pay-gateway-cert.apple.com", "cn-apple-pay-gateway-cert.apple.com"]
        return hosts
    }()

    /// Checks a `validationURL` from the sheet: `https`, no user info, no explicit port, a host name (not an IP
    /// literal) that is exactly one of `allowed` (ignoring case and a trailing dot), no fragment.
    /// - Parameters:
    ///   - text: The URL the browser received in `onvalidatemerchant`.
    ///   - allowed: The allowed host names.
    /// - Returns: The URL and its lower-cased host.
    /// - Throws: ``CheckoutError`` (`merchantValidationRefused`, 400) saying why.
    public static func check(_ text: String, allowed: [String]) throws -> (url: URL, host: String) {
        func refuse(_ reason: String) -> CheckoutError {
            CheckoutError(.merchantValidationRefused, status: .badRequest, reason, field: "validationURL")
        }
        guard text.count <= 2048, let components = URLComponents(string: text), let url = components.url else {
            throw refuse("is not a URL")
        }
        guard components.scheme?.lowercased() == "https" else { throw refuse("must be an https URL") }
        guard components.user == nil, components.password == nil else { throw refuse("must not carry user information") }
        guard components.port == nil else { throw refuse("must not name a port") }
        guard components.fragment == nil else { throw refuse("must not carry a fragment") }
        guard var host = components.host?.lowercased(), !host.isEmpty else { throw refuse("has no host") }
        if host.hasSuffix(".") { host.removeLast() }
        if isIPLiteral(host) { throw refuse("must name an Apple Pay host, not an IP address") }
        let permitted = Set(allowed.map { $0.lowercased() })
        guard permitted.contains(host) else {
            throw refuse("host \(host) is not one of Apple's Apple Pay gateway hosts")
        }
        return (url, host)
    }

    /// Whether a host is an IPv4 or IPv6 literal (or a bare number some resolvers read as one).
    static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") || host.contains(":") { return true }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isHexDigit || $0 == "x" } })
            && labels.allSatisfy({ $0.first?.isNumber == true }) {
            return true
        }
        return false
    }
}
