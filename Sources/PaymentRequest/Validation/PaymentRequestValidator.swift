import Foundation

extension ApplePayPaymentRequest {
    /// Checks the request the way Safari does, plus the rules Apple documents for merchants, and returns every
    /// problem with its JSON path (errors and warnings).
    /// - Returns: The report; ``PaymentRequestReport/isValid`` when there are no errors.
    public func validate() -> PaymentRequestReport {
        var checker = RequestChecker(currencyCode: currencyCode)
        checker.checkCodes(self)
        checker.checkTotal(total, lineItems: lineItems, path: "total")
        checker.checkLineItems(lineItems, path: "lineItems")
        checker.checkShipping(self)
        checker.checkContacts(self)
        checker.checkSubscriptions(self)
        checker.checkTokenContexts(multiTokenContexts, total: total)
        return PaymentRequestReport(issues: checker.issues)
    }
}

/// Collects issues while walking a request; each `check...` covers one concern.
struct RequestChecker {
    var issues: [PaymentRequestIssue] = []
    /// The request's currency, when it is a known ISO 4217 code.
    let currency: Currency?

    init(currencyCode: String) {
        currency = Currency(code: currencyCode)
    }

    mutating func error(_ path: String, _ message: String) {
        issues.append(PaymentRequestIssue(severity: .error, path: path, message: message))
    }

    mutating func warning(_ path: String, _ message: String) {
        issues.append(PaymentRequestIssue(severity: .warning, path: path, message: message))
    }

    /// Country, currency, supported countries, merchant capabilities and networks.
    mutating func checkCodes(_ request: ApplePayPaymentRequest) {
        checkCountry(request.countryCode, path: "countryCode", required: true)
        if request.currencyCode.isEmpty {
            error("currencyCode", "is required")
        } else if currency == nil {
            error("currencyCode", "\"\(request.currencyCode)\" is not an ISO 4217 currency code")
        }
        for (index, code) in (request.supportedCountries ?? []).enumerated() {
            checkCountry(code, path: "supportedCountries[\(index)]", required: true)
        }

        let capabilities = request.merchantCapabilities
        if capabilities.isEmpty {
            error("merchantCapabilities", "must list at least one capability")
        } else {
            for (index, capability) in capabilities.enumerated() where !capability.isKnown {
                error("merchantCapabilities[\(index)]",
                      "\"\(capability)\" is not a merchant capability (\(MerchantCapability.knownList))")
            }
            if !capabilities.contains(.supports3DS) {
                error("merchantCapabilities", "must include \"supports3DS\"; Apple requires it in every request")
            }
        }

        if request.supportedNetworks.isEmpty {
            error("supportedNetworks", "must list at least one network")
        }
        var seen: Set<String> = []
        for (index, network) in request.supportedNetworks.enumerated() {
            let path = "supportedNetworks[\(index)]"
            if !network.isKnown {
                error(path, "\"\(network)\" is not a payment network Apple Pay supports")
            } else if !seen.insert(network.rawValue.lowercased()).inserted {
                warning(path, "repeats \"\(network)\"")
            }
        }
    }

    mutating func checkCountry(_ code: String, path: String, required: Bool) {
        if code.isEmpty {
            if required { error(path, "is required") }
        } else if !CountryCode.isValid(code) {
            error(path, "\"\(code)\" is not an ISO 3166-1 alpha-2 country code")
        }
    }

    /// The amount grammar, sign and the currency's fraction digits.
    /// - Returns: The value when the amount is usable.
    @discardableResult
    mutating func checkAmount(_ amount: String, path: String, allowNegative: Bool, allowEmpty: Bool = false)
        -> Decimal? {
        if amount.isEmpty {
            if !allowEmpty { error(path, "is required") }
            return nil
        }
        guard let value = AmountString.decimal(amount), let digits = AmountString.fractionDigits(amount) else {
            error(path, "\"\(amount)\" is not a valid amount: use digits with an optional minus sign and decimal point, "
                + "such as \"10.00\"")
            return nil
        }
        if value < 0 && !allowNegative {
            error(path, "must not be negative")
        }
        if let currency, digits > currency.minorUnits {
            error(path, "has \(digits) digits after the decimal point; \(currency.code) allows \(currency.minorUnits)")
        }
        return value
    }

    /// Writes a sum the way the currency writes amounts (or as-is when the currency is unknown).
    func format(_ value: Decimal) -> String {
        guard let currency else { return "\(value)" }
        return AmountString.format(value, fractionDigits: max(currency.minorUnits, 0))
    }

    mutating func checkLabelLength(_ label: String, path: String, prefix: String = "") {
        let length = (prefix + label).count
        guard length > ApplePayLimits.labelCharacterLimit else { return }
        let subject = prefix.isEmpty ? "is \(length) characters" : "\"\(prefix)<label>\" is \(length) characters"
        warning(path, "\(subject); the sheet shows about \(ApplePayLimits.labelCharacterLimit) on one line")
    }
}

extension ApplePayDetailsUpdate {
    /// Checks an update with the same rules as a request's total, line items and shipping methods.
    /// - Parameter currencyCode: The request's currency (an update cannot change it).
    /// - Returns: Every problem, with paths such as `newLineItems[0].amount`.
    public func validate(currencyCode: String) -> PaymentRequestReport {
        var checker = RequestChecker(currencyCode: currencyCode)
        if currencyCode.isEmpty || Currency(code: currencyCode) == nil {
            checker.error("currencyCode", "\"\(currencyCode)\" is not an ISO 4217 currency code")
        }
        checker.checkTotal(newTotal, lineItems: newLineItems, path: "newTotal")
        checker.checkLineItems(newLineItems, path: "newLineItems")
        checker.checkShippingMethods(updatedShippingMethods, path: "newShippingMethods")
        return PaymentRequestReport(issues: checker.issues)
    }
}
