import Foundation

extension RequestChecker {
    /// Recurring, deferred and automatic-reload requests, as Safari checks them.
    mutating func checkSubscriptions(_ request: ApplePayPaymentRequest) {
        // Apple: using these together "results in an error and cancels the payment request".
        if request.recurringPaymentRequest != nil, request.automaticReloadPaymentRequest != nil {
            error("automaticReloadPaymentRequest", "cannot be used with recurringPaymentRequest: Apple Pay cancels such a request")
        }
        if !(request.multiTokenContexts ?? []).isEmpty {
            for key in ["recurringPaymentRequest", "automaticReloadPaymentRequest"]
            where (key == "recurringPaymentRequest" ? request.recurringPaymentRequest != nil
                   : request.automaticReloadPaymentRequest != nil) {
                error("multiTokenContexts", "cannot be used with \(key): Apple Pay cancels such a request")
            }
        }
        if let recurring = request.recurringPaymentRequest {
            let path = "recurringPaymentRequest"
            requireText(recurring.paymentDescription, path: "\(path).paymentDescription")
            checkBilling(recurring.regularBilling, path: "\(path).regularBilling", timing: .recurring)
            if let trial = recurring.trialBilling {
                checkBilling(trial, path: "\(path).trialBilling", timing: .recurring)
            }
            checkURL(recurring.managementURL, path: "\(path).managementURL", required: true)
            checkURL(recurring.tokenNotificationURL, path: "\(path).tokenNotificationURL", required: false)
        }
        if let deferred = request.deferredPaymentRequest {
            let path = "deferredPaymentRequest"
            requireText(deferred.paymentDescription, path: "\(path).paymentDescription")
            checkBilling(deferred.deferredBilling, path: "\(path).deferredBilling", timing: .deferred)
            if deferred.deferredBilling.deferredPaymentDate == nil {
                warning("\(path).deferredBilling.deferredPaymentDate", "should be set: it is when the buyer is charged")
            }
            checkURL(deferred.managementURL, path: "\(path).managementURL", required: true)
            checkURL(deferred.tokenNotificationURL, path: "\(path).tokenNotificationURL", required: false)
            checkFreeCancellation(deferred, path: path)
        }
        if let reload = request.automaticReloadPaymentRequest {
            let path = "automaticReloadPaymentRequest"
            requireText(reload.paymentDescription, path: "\(path).paymentDescription")
            let billing = reload.automaticReloadBilling
            checkBilling(billing, path: "\(path).automaticReloadBilling", timing: .automaticReload)
            if billing.automaticReloadPaymentThresholdAmount == nil {
                error("\(path).automaticReloadBilling.automaticReloadPaymentThresholdAmount", "is required")
            }
            checkURL(reload.managementURL, path: "\(path).managementURL", required: true)
            checkURL(reload.tokenNotificationURL, path: "\(path).tokenNotificationURL", required: false)
        }
    }

    mutating func requireText(_ text: String, path: String) {
        if text.isEmpty { error(path, "is required") }
    }

    /// A billing line item: the right payment timing, a label, and the line-item rules.
    mutating func checkBilling(_ item: ApplePayLineItem, path: String, timing: PaymentTiming) {
        if item.paymentTiming != timing {
            error("\(path).paymentTiming", "must be \"\(timing)\"")
        }
        if let amount = item.amountValue, amount < 0 {
            error("\(path).amount", "must not be negative: it is what the buyer agrees to be charged")
        }
        checkLineItem(item, path: path, labelRequired: true)
    }

    /// An absolute URL with a scheme and a host.
    mutating func checkURL(_ string: String?, path: String, required: Bool) {
        guard let string, !string.isEmpty else {
            if required { error(path, "is required") }
            return
        }
        guard let url = URL(string: string), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
              url.host?.isEmpty == false else {
            error(path, "\"\(string)\" is not a valid URL")
            return
        }
    }

    /// `freeCancellationDate` and `freeCancellationDateTimeZone` come together; the zone must exist.
    mutating func checkFreeCancellation(_ deferred: ApplePayDeferredPaymentRequest, path: String) {
        let date = deferred.freeCancellationDate
        let zone = deferred.freeCancellationDateTimeZone
        checkDate(date, path: "\(path).freeCancellationDate")
        switch (date, zone) {
        case (nil, .some):
            error("\(path).freeCancellationDateTimeZone", "must not be set without freeCancellationDate")
        case (.some, nil):
            error("\(path).freeCancellationDateTimeZone", "is required when freeCancellationDate is set")
        case (.some, .some(let identifier)):
            if TimeZone(identifier: identifier) == nil {
                error("\(path).freeCancellationDateTimeZone", "\"\(identifier)\" is not a time zone identifier")
            }
        case (nil, nil):
            break
        }
    }
}
