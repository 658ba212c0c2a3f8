import Foundation

extension RequestChecker {
    /// Shipping type, editing mode and shipping methods.
    mutating func checkShipping(_ request: ApplePayPaymentRequest) {
        if let type = request.shippingType, !type.isKnown {
            error("shippingType", "\"\(type)\" is not a shipping type (\(ShippingType.knownList))")
        }
        if let mode = request.shippingContactEditingMode {
            if mode == .enabled {
                warning("shippingContactEditingMode", "\"enabled\" is deprecated; use \"available\"")
            } else if !mode.isKnown {
                error("shippingContactEditingMode",
                      "\"\(mode)\" is not a shipping contact editing mode (\(ShippingContactEditingMode.knownList))")
            }
        }
        checkShippingMethods(request.shippingMethods, path: "shippingMethods")
    }

    mutating func checkShippingMethods(_ methods: [ApplePayShippingMethod]?, path: String) {
        var identifiers: [String: Int] = [:]
        for (index, method) in (methods ?? []).enumerated() {
            let itemPath = "\(path)[\(index)]"
            if method.label.isEmpty {
                warning("\(itemPath).label", "is empty; the sheet shows a method without a name")
            } else {
                checkLabelLength(method.label, path: "\(itemPath).label")
            }
            checkAmount(method.amount, path: "\(itemPath).amount", allowNegative: false)
            if method.identifier.isEmpty {
                warning("\(itemPath).identifier", "is empty; the merchant cannot tell which method the buyer picked")
            } else if let first = identifiers[method.identifier] {
                warning("\(itemPath).identifier", "repeats the identifier of \(path)[\(first)]")
            } else {
                identifiers[method.identifier] = index
            }
            if let range = method.dateComponentsRange {
                for (name, components) in [("startDateComponents", range.startDateComponents),
                                           ("endDateComponents", range.endDateComponents)] {
                    if let month = components.months, !(1...12).contains(month) {
                        error("\(itemPath).dateComponentsRange.\(name).months", "must be 1 to 12, found \(month)")
                    }
                    if let day = components.days, !(1...31).contains(day) {
                        error("\(itemPath).dateComponentsRange.\(name).days", "must be 1 to 31, found \(day)")
                    } else if let day = components.days, let month = components.months, (1...12).contains(month),
                              day > Self.daysIn(month: month, year: components.years) {
                        // February 30th, April 31st: a day the month does not have (29 February only in a leap year).
                        error("\(itemPath).dateComponentsRange.\(name).days",
                              "month \(month)\(components.years.map { " of \($0)" } ?? "") has \(Self.daysIn(month: month, year: components.years)) days, found \(day)")
                    }
                }
                if range.endDateComponents < range.startDateComponents {
                    warning("\(itemPath).dateComponentsRange", "endDateComponents is before startDateComponents")
                }
            }
        }
    }

    /// Required contact fields, prefilled contacts and the coupon code.
    mutating func checkContacts(_ request: ApplePayPaymentRequest) {
        for (index, field) in (request.requiredBillingContactFields ?? []).enumerated() {
            let path = "requiredBillingContactFields[\(index)]"
            if !field.isKnown {
                error(path, "\"\(field)\" is not a contact field (\(ContactField.knownList))")
            } else if field == .email || field == .phone {
                warning(path, "\"\(field)\" is not collected for billing; ask for it in requiredShippingContactFields")
            }
        }
        for (index, field) in (request.requiredShippingContactFields ?? []).enumerated() where !field.isKnown {
            error("requiredShippingContactFields[\(index)]",
                  "\"\(field)\" is not a contact field (\(ContactField.knownList))")
        }
        for (name, contact) in [("billingContact", request.billingContact), ("shippingContact", request.shippingContact)] {
            if let code = contact?.countryCode, !code.isEmpty, !CountryCode.isValid(code) {
                warning("\(name).countryCode", "\"\(code)\" is not an ISO 3166-1 alpha-2 country code")
            }
        }
        if request.couponCode != nil && request.supportsCouponCode != true {
            warning("couponCode", "is set but supportsCouponCode is not true, so the sheet does not show it")
        }
    }

    /// Multi-merchant token contexts: required names and identifiers, amounts, and their sum against the total.
    mutating func checkTokenContexts(_ contexts: [ApplePayPaymentTokenContext]?, total: ApplePayLineItem) {
        guard let contexts else { return }
        var sum = Decimal(0)
        var summable = true
        for (index, context) in contexts.enumerated() {
            let path = "multiTokenContexts[\(index)]"
            if context.merchantIdentifier.isEmpty { error("\(path).merchantIdentifier", "is required") }
            if context.externalIdentifier.isEmpty { error("\(path).externalIdentifier", "is required") }
            if context.merchantName.isEmpty { error("\(path).merchantName", "is required") }
            if let value = checkAmount(context.amount, path: "\(path).amount", allowNegative: false) {
                sum += value
            } else {
                summable = false
            }
        }
        // Apple: a sum over the total "results in an error and cancels the payment request".
        if summable, !contexts.isEmpty, total.type != .pending, let totalValue = total.amountValue, sum > totalValue {
            error("multiTokenContexts", "amounts add up to \(format(sum)), more than the total \(total.amount): Apple Pay "
                  + "cancels such a request")
        }
    }

    /// The days of a month of the Gregorian calendar; February has 29 when the year is unknown or a leap year.
    static func daysIn(month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
