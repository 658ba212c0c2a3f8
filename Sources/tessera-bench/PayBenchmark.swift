import ArgumentParser
import Foundation
import PaymentRequest

/// Payment requests validated per second and sheet updates computed per second, on one thread.
struct PayBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Apple Pay payment requests validated per second and sheet updates computed per second (1 thread)."
    )

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 2

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
    }

    /// A checkout shaped like a real one: tax, a discount, a fee, three shipping options, contact fields.
    static func builder(_ index: Int) throws -> PaymentRequestBuilder {
        var summary = MerchantSummary(subtotal: Decimal(4_000 + index % 500) / 100,
                                      tax: Charge("Estimated Tax", Decimal(329 + index % 40) / 100))
        summary.discounts = [Charge("Spring Sale", Decimal(500) / 100)]
        summary.fees = [Charge("Service Fee", Decimal(199) / 100)]
        let fixed = Date(timeIntervalSince1970: 1_772_409_600)  // a Monday
        var builder = try PaymentRequestBuilder(merchant: .via(endMerchant: "Corner Bakery", platform: "Marketplace"),
                                                countryCode: "US", currencyCode: "USD", summary: summary,
                                                calendar: BusinessDayCalendar(now: { fixed }))
        builder.shippingType = .shipping
        builder.shippingOptions = [
            ShippingOption(identifier: "standard", label: "Standard", amount: 5, businessDays: 3...5),
            ShippingOption(identifier: "express", label: "Express", amount: 15, businessDays: 1...2),
            ShippingOption(identifier: "overnight", label: "Overnight", amount: 30, businessDays: 1...1),
        ]
        builder.requiredShippingContactFields = [.name, .postalAddress, .email]
        builder.requiredBillingContactFields = [.postalAddress]
        return builder
    }

    func run() throws {
        let builders = try (0..<64).map(Self.builder)
        let requests = try builders.map { try $0.build() }
        let documents = try requests.map { try $0.jsonData() }
        let methods = ["standard", "express", "overnight"]
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.operatingSystemVersionString); 1 thread")
        print("request: \(documents[0].count) bytes of JSON, \(requests[0].lineItems?.count ?? 0) line items, "
            + "\(requests[0].shippingMethods?.count ?? 0) shipping methods")
        print("")
        print("| measurement | per second |")
        print("| --- | ---: |")
        let validated = try rate { index in
            guard requests[index % 64].validate().isValid else { throw ValidationError("benchmark request is invalid") }
        }
        print("| `validate()` on a decoded request | \(Self.number(validated)) |")
        let decoded = try rate { index in
            let request = try ApplePayPaymentRequest(jsonData: documents[index % 64])
            guard request.validate().isValid else { throw ValidationError("benchmark request is invalid") }
        }
        print("| JSON decode + `validate()` | \(Self.number(decoded)) |")
        let shipping = try rate { index in
            _ = try builders[index % 64].shippingMethodUpdate(selecting: methods[index % 3])
        }
        print("| `shippingMethodUpdate(selecting:)` (line items + total + validation) | \(Self.number(shipping)) |")
        let coupon = try rate { index in
            _ = try builders[index % 64].couponCodeUpdate(code: "SAVE5", discount: Charge("Coupon SAVE5", 5))
        }
        print("| `couponCodeUpdate(code:discount:)` | \(Self.number(coupon)) |")
        let built = try rate { index in _ = try builders[index % 64].build() }
        print("| `build()` (request + shipping dates + validation) | \(Self.number(built)) |")
    }

    /// Calls of `body` per second over `seconds`.
    func rate(_ body: (Int) throws -> Void) throws -> Double {
        for index in 0..<64 { try body(index) }  // warm up
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var count = 0
        while DispatchTime.now().uptimeNanoseconds < deadline {
            try body(count)
            count += 1
        }
        return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    static func number(_ value: Double) -> String { String(format: "%.0f", value) }
}
