import Foundation
import PaymentRequest
import Testing

@Suite("Validation rules: recurring, deferred, automatic reload and multi-token")
struct SubscriptionRuleTests {
    static func recurring() -> ApplePayRecurringPaymentRequest {
        var billing = ApplePayLineItem(label: "Monthly", amount: "9.99", paymentTiming: .recurring)
        billing.recurringPaymentIntervalUnit = .month
        return ApplePayRecurringPaymentRequest(paymentDescription: "Premium plan", regularBilling: billing,
                                               managementURL: "https://example.com/account")
    }

    static func deferred() -> ApplePayDeferredPaymentRequest {
        var billing = ApplePayLineItem(label: "Stay", amount: "240.00", paymentTiming: .deferred)
        billing.deferredPaymentDate = "2026-07-03T11:00:00Z"
        return ApplePayDeferredPaymentRequest(paymentDescription: "Hotel", deferredBilling: billing,
                                              managementURL: "https://example.com/bookings")
    }

    static func reload() -> ApplePayAutomaticReloadPaymentRequest {
        var billing = ApplePayLineItem(label: "Reload", amount: "20.00", paymentTiming: .automaticReload)
        billing.automaticReloadPaymentThresholdAmount = "5.00"
        return ApplePayAutomaticReloadPaymentRequest(paymentDescription: "Card top-up", automaticReloadBilling: billing,
                                                     managementURL: "https://example.com/card")
    }

    static let rules: [Rule] = [
        Rule("recurring description", .error, "recurringPaymentRequest.paymentDescription", "is required") {
            var value = recurring(); value.paymentDescription = ""; $0.recurringPaymentRequest = value
        },
        Rule("recurring timing", .error, "recurringPaymentRequest.regularBilling.paymentTiming", "must be \"recurring\"") {
            var value = recurring(); value.regularBilling.paymentTiming = .immediate; $0.recurringPaymentRequest = value
        },
        Rule("recurring label", .error, "recurringPaymentRequest.regularBilling.label", "is required") {
            var value = recurring(); value.regularBilling.label = ""; $0.recurringPaymentRequest = value
        },
        Rule("trial timing", .error, "recurringPaymentRequest.trialBilling.paymentTiming", "must be \"recurring\"") {
            var value = recurring()
            value.trialBilling = ApplePayLineItem(label: "Trial", amount: "0.00")
            $0.recurringPaymentRequest = value
        },
        Rule("management URL", .error, "recurringPaymentRequest.managementURL", "\"example.com\" is not a valid URL") {
            var value = recurring(); value.managementURL = "example.com"; $0.recurringPaymentRequest = value
        },
        Rule("missing management URL", .error, "recurringPaymentRequest.managementURL", "is required") {
            var value = recurring(); value.managementURL = ""; $0.recurringPaymentRequest = value
        },
        Rule("token URL", .error, "recurringPaymentRequest.tokenNotificationURL", "\"ftp://x\" is not a valid URL") {
            var value = recurring(); value.tokenNotificationURL = "ftp://x"; $0.recurringPaymentRequest = value
        },
        Rule("deferred timing", .error, "deferredPaymentRequest.deferredBilling.paymentTiming", "must be \"deferred\"") {
            var value = deferred(); value.deferredBilling.paymentTiming = nil; $0.deferredPaymentRequest = value
        },
        Rule("deferred date", .warning, "deferredPaymentRequest.deferredBilling.deferredPaymentDate",
             "should be set: it is when the buyer is charged") {
            var value = deferred(); value.deferredBilling.deferredPaymentDate = nil; $0.deferredPaymentRequest = value
        },
        Rule("cancellation zone missing", .error, "deferredPaymentRequest.freeCancellationDateTimeZone",
             "is required when freeCancellationDate is set") {
            var value = deferred(); value.freeCancellationDate = "2026-06-30T00:00:00Z"; $0.deferredPaymentRequest = value
        },
        Rule("cancellation zone alone", .error, "deferredPaymentRequest.freeCancellationDateTimeZone",
             "must not be set without freeCancellationDate") {
            var value = deferred(); value.freeCancellationDateTimeZone = "Europe/Paris"; $0.deferredPaymentRequest = value
        },
        Rule("cancellation zone unknown", .error, "deferredPaymentRequest.freeCancellationDateTimeZone",
             "\"Mars/Olympus\" is not a time zone identifier") {
            var value = deferred()
            value.freeCancellationDate = "2026-06-30T00:00:00Z"
            value.freeCancellationDateTimeZone = "Mars/Olympus"
            $0.deferredPaymentRequest = value
        },
        Rule("reload timing", .error, "automaticReloadPaymentRequest.automaticReloadBilling.paymentTiming",
             "must be \"automaticReload\"") {
            var value = reload(); value.automaticReloadBilling.paymentTiming = .recurring; $0.automaticReloadPaymentRequest = value
        },
        Rule("reload threshold missing", .error,
             "automaticReloadPaymentRequest.automaticReloadBilling.automaticReloadPaymentThresholdAmount", "is required") {
            var value = reload()
            value.automaticReloadBilling.automaticReloadPaymentThresholdAmount = nil
            $0.automaticReloadPaymentRequest = value
        },
        Rule("reload threshold grammar", .error,
             "automaticReloadPaymentRequest.automaticReloadBilling.automaticReloadPaymentThresholdAmount",
             "\"$5\" is not a valid amount: use digits with an optional minus sign and decimal point, such as \"10.00\"") {
            var value = reload()
            value.automaticReloadBilling.automaticReloadPaymentThresholdAmount = "$5"
            $0.automaticReloadPaymentRequest = value
        },
        Rule("token context merchant", .error, "multiTokenContexts[0].merchantIdentifier", "is required") {
            $0.multiTokenContexts = [ApplePayPaymentTokenContext(merchantIdentifier: "", externalIdentifier: "a",
                                                                 merchantName: "A", amount: "1.00")]
        },
        Rule("token context amount", .error, "multiTokenContexts[0].amount", "must not be negative") {
            $0.multiTokenContexts = [ApplePayPaymentTokenContext(merchantIdentifier: "merchant.a", externalIdentifier: "a",
                                                                 merchantName: "A", amount: "-1.00")]
        },
        Rule("token contexts exceed total", .error, "multiTokenContexts",
             "amounts add up to 13.00, more than the total 12.50: Apple Pay cancels such a request") {
            $0.multiTokenContexts = ["8.00", "5.00"].enumerated().map { index, amount in
                ApplePayPaymentTokenContext(merchantIdentifier: "merchant.\(index)", externalIdentifier: "\(index)",
                                            merchantName: "M\(index)", amount: amount)
            }
        },
        Rule("token contexts with a recurring payment", .error, "multiTokenContexts",
             "cannot be used with recurringPaymentRequest: Apple Pay cancels such a request") {
            $0.multiTokenContexts = [ApplePayPaymentTokenContext(merchantIdentifier: "merchant.a", externalIdentifier: "a",
                                                                 merchantName: "A", amount: "1.00")]
            $0.recurringPaymentRequest = recurring()
        },
        Rule("token contexts with an automatic reload", .error, "multiTokenContexts",
             "cannot be used with automaticReloadPaymentRequest: Apple Pay cancels such a request") {
            $0.multiTokenContexts = [ApplePayPaymentTokenContext(merchantIdentifier: "merchant.a", externalIdentifier: "a",
                                                                 merchantName: "A", amount: "1.00")]
            $0.automaticReloadPaymentRequest = reload()
        },
        Rule("a negative recurring amount", .error, "recurringPaymentRequest.regularBilling.amount",
             "must not be negative: it is what the buyer agrees to be charged") {
            var value = recurring()
            value.regularBilling.amount = "-10.00"
            $0.recurringPaymentRequest = value
        },
        Rule("a recurring payment with an automatic reload", .error, "automaticReloadPaymentRequest",
             "cannot be used with recurringPaymentRequest: Apple Pay cancels such a request") {
            $0.recurringPaymentRequest = recurring()
            $0.automaticReloadPaymentRequest = reload()
        },
    ]

    @Test(arguments: rules)
    func reportsTheRuleExactly(_ rule: Rule) {
        var request = Rule.valid
        rule.breakRequest(&request)
        let report = request.validate()
        let expected = PaymentRequestIssue(severity: rule.severity, path: rule.path, message: rule.message)
        #expect(report.issues.contains(expected), "\(report.issues)")
        #expect(report.isValid == (rule.severity == .warning))
    }

    @Test func wellFormedSubscriptionsPass() {
        var request = Rule.valid
        request.recurringPaymentRequest = Self.recurring()
        request.deferredPaymentRequest = Self.deferred()
        #expect(request.validate().issues.isEmpty, "\(request.validate().issues)")
        var reloading = Rule.valid
        reloading.automaticReloadPaymentRequest = Self.reload()
        #expect(reloading.validate().issues.isEmpty, "\(reloading.validate().issues)")
    }
}
