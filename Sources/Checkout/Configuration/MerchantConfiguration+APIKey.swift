import Foundation

extension MerchantConfiguration {
    /// The merchant's API key: the contents of `apiKeyFile` without surrounding white space.
    /// - Returns: The key, or `nil` when no file is configured.
    /// - Throws: ``CheckoutError`` when the file cannot be read or holds fewer than 24 characters.
    public func apiKey() throws -> String? {
        guard let apiKeyFile else { return nil }
        guard let text = try? String(contentsOfFile: apiKeyFile, encoding: .utf8) else {
            throw CheckoutError.configuration("apiKeyFile", "cannot be read")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard key.count >= 24 else { throw CheckoutError.configuration("apiKeyFile", "must hold at least 24 characters") }
        return key
    }
}
