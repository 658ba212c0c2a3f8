public import Foundation
import PassModel
import PaymentRequest

extension MerchantConfiguration {
    /// Reads and checks a configuration file; relative paths in it are resolved against the file's folder.
    /// - Parameter url: The JSON file.
    /// - Returns: The checked configuration.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) naming the key at fault.
    public static func load(contentsOf url: URL) throws -> MerchantConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CheckoutError.configuration(url.path, "cannot be read: \(error.localizedDescription)")
        }
        var configuration = try decode(jsonData: data)
        configuration.resolvePaths(relativeTo: url.deletingLastPathComponent())
        try configuration.validate()
        return configuration
    }

    /// Decodes configuration JSON (without checking it or resolving paths).
    /// - Parameter data: The JSON.
    /// - Returns: The configuration.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) naming the key at fault.
    public static func decode(jsonData data: Data) throws -> MerchantConfiguration {
        do {
            return try JSONDecodingFailure.decode(MerchantConfiguration.self, from: data)
        } catch let failure as JSONDecodingFailure {
            let (path, reason) = CheckoutError.describe(failure)
            throw CheckoutError.configuration(path, reason)
        } catch {
            throw CheckoutError.configuration("(root)", "is not JSON")
        }
    }

    /// Makes relative file paths absolute against `directory`.
    /// - Parameter directory: The configuration file's folder.
    public mutating func resolvePaths(relativeTo directory: URL) {
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : directory.appendingPathComponent(path).standardizedFileURL.path
        }
        paymentProcessingKeyPaths = paymentProcessingKeyPaths.map(resolve)
        appleRootCertificatePath = appleRootCertificatePath.map(resolve)
        if let secretFile = paymentProcessor?.secretFile { paymentProcessor?.secretFile = resolve(secretFile) }
        apiKeyFile = apiKeyFile.map(resolve)
        if let identity = merchantIdentity {
            merchantIdentity = MerchantIdentity(certificatePath: resolve(identity.certificatePath),
                                                keyPath: resolve(identity.keyPath))
        }
    }

    /// Checks the values against each other and against ISO and Apple Pay's lists.
    /// - Throws: ``CheckoutError`` (`invalidConfiguration`) naming the key at fault.
    public func validate() throws {
        func fail(_ field: String, _ reason: String) -> CheckoutError { CheckoutError.configuration(field, reason) }
        guard !merchantIdentifier.isEmpty else { throw fail("merchantIdentifier", "must not be empty") }
        try paymentProcessor?.validate(developmentMode: developmentMode)
        try paymentStep?.validate()
        try walletOrders?.validate()
        guard !displayName.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail("displayName", "must not be empty") }
        guard CountryCode.isValid(countryCode) else { throw fail("countryCode", "\"\(countryCode)\" is not ISO 3166-1 alpha-2") }
        guard Currency(code: currencyCode) != nil else {
            throw fail("currencyCode", "\"\(currencyCode)\" is not an ISO 4217 code")
        }
        for (index, network) in supportedNetworks.enumerated() where !network.isKnown {
            throw fail("supportedNetworks[\(index)]", "\"\(network)\" is not an Apple Pay network")
        }
        for (key, fields) in [("requiredShippingContactFields", requiredShippingContactFields),
                              ("requiredBillingContactFields", requiredBillingContactFields)] {
            for (index, field) in fields.enumerated() where !field.isKnown {
                throw fail("\(key)[\(index)]", "\"\(field)\" is not a contact field (postalAddress, name, email, phone, "
                           + "phoneticName)")
            }
        }
        // An amount the currency cannot hold would be rounded at every sale, and the receipt's lines would not add
        // up (2 × 1.005 shown as 1.01 each, 2.01 in all).
        let currency = Currency(code: currencyCode)
        func checkMinorUnits(_ amount: Decimal, _ field: String) throws {
            guard let currency, Money(amount, currency).rounded.amount != amount else { return }
            throw fail(field, "\(amount) has more decimal places than \(currencyCode) has (\(currency.minorUnits))")
        }
        var identifiers = Set<String>()
        for (index, method) in shippingMethods.enumerated() {
            let field = "shippingMethods[\(index)]"
            guard !method.identifier.isEmpty, identifiers.insert(method.identifier).inserted else {
                throw fail("\(field).identifier", "must be unique and not empty")
            }
            if let pickup = method.pickup, pickup.displayName.trimmingCharacters(in: .whitespaces).isEmpty {
                throw fail("\(field).pickup.displayName", "must not be empty: the pickup place's name")
            }
            guard method.amount >= 0 else { throw fail("\(field).amount", "must not be negative") }
            try checkMinorUnits(method.amount, "\(field).amount")
            guard method.minimumBusinessDays >= 0, method.minimumBusinessDays <= method.maximumBusinessDays else {
                throw fail("\(field).minimumBusinessDays", "must be between 0 and maximumBusinessDays")
            }
        }
        if let tax, tax.rate < 0 || tax.rate >= 1 { throw fail("tax.rate", "must be a fraction from 0 to below 1 (0.0825)") }
        var codes = Set<String>()
        for (index, coupon) in coupons.enumerated() {
            let field = "coupons[\(index)]"
            guard !coupon.code.isEmpty, codes.insert(coupon.code.uppercased()).inserted else {
                throw fail("\(field).code", "must be unique (ignoring case) and not empty")
            }
            switch (coupon.percentOff, coupon.amountOff) {
            case (let percent?, nil) where percent > 0 && percent <= 100: break
            case (nil, let amount?) where amount > 0: break
            default: throw fail(field, "needs exactly one of percentOff (0-100) or amountOff (above 0)")
            }
            if let amount = coupon.amountOff { try checkMinorUnits(amount, "\(field).amountOff") }
        }
        for (index, region) in shippingRegions.enumerated() where !CountryCode.isValid(region.countryCode) {
            throw fail("shippingRegions[\(index)].countryCode", "\"\(region.countryCode)\" is not ISO 3166-1 alpha-2")
        }
        for (sku, product) in products where product.unitPrice < 0 || product.name.isEmpty {
            throw fail("products.\(sku)", "needs a name and a unitPrice of 0 or more")
        }
        for (sku, product) in products.sorted(by: { $0.key < $1.key }) {
            try checkMinorUnits(product.unitPrice, "products.\(sku).unitPrice")
        }
        guard ["web", "messaging"].contains(initiative) else { throw fail("initiative", "must be \"web\" or \"messaging\"") }
    }
}
