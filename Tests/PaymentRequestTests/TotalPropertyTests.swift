import Foundation
import PaymentRequest
import PropertyBased
import Testing

/// Totals always add up: for random summaries in currencies with 0, 2 and 3 decimals, the total is exactly the sum of
/// the final line items as written, every amount has the currency's digits, and the request validates.
@Suite("Property: totals add up")
struct TotalPropertyTests {
    /// An amount with up to two digits more than the currency has, so rounding is exercised.
    static func amount(_ units: Int, extraDigits: Int, currency: Currency) -> Decimal {
        var value = Decimal(units)
        for _ in 0..<(currency.minorUnits + extraDigits) { value /= 10 }
        return value
    }

    static let amounts = Gen.int(in: 0...5_000_000)
    static let lists = Gen.int(in: 0...2_000_000).array(of: 0...4)

    @Test(arguments: ["JPY", "USD", "KWD"])
    func totalsAlwaysAddUp(_ code: String) async throws {
        let currency = try #require(Currency(code: code))
        await propertyCheck(count: 200, input: Self.amounts, Self.amounts, Self.lists, Self.lists, Gen.int(in: 0...2),
                            Gen.int(in: 0...2)) { subtotal, tax, fees, discounts, extra, pending in
            var summary = MerchantSummary(subtotal: Self.amount(subtotal, extraDigits: extra, currency: currency),
                                          tax: Charge("Tax", Self.amount(tax, extraDigits: extra, currency: currency)))
            summary.fees = fees.enumerated().map { Charge("Fee \($0)", Self.amount($1, extraDigits: extra, currency: currency)) }
            summary.discounts = discounts.enumerated().map {
                Charge("Discount \($0)", Self.amount($1, extraDigits: extra, currency: currency))
            }
            summary.pendingCosts = (0..<pending).map { "Pending \($0)" }
            let builder = try PaymentRequestBuilder(merchant: MerchantName("Shop"), countryCode: "US",
                                                    currencyCode: code, summary: summary)
            let items = try builder.lineItems()
            let total = builder.total(for: items)

            var sum = Decimal(0)
            for item in items where !item.isPending {
                #expect(AmountString.fractionDigits(item.amount) == currency.minorUnits, "\(item.amount)")
                sum += try #require(item.amountValue)
            }
            #expect(try #require(total.amountValue) == sum)
            #expect(AmountString.fractionDigits(total.amount) == currency.minorUnits)
            #expect(total.type == (pending > 0 ? .pending : .final))

            if sum >= 0 {
                let request = try builder.build()
                #expect(request.validate().errors.isEmpty)
                #expect(request.paymentSummaryItems.last?.amount == sum)
            } else {
                let error = #expect(throws: PaymentRequestError.self) { try builder.build() }
                #expect(error?.report?.errors.map(\.message) == ["must not be negative"])
            }
        }
    }

    @Test func formattingRoundTripsThroughTheGrammar() async {
        await propertyCheck(count: 300, input: Gen.int(in: -9_999_999_999...9_999_999_999),
                            Gen.element(of: [Currency.jpy, .usd, .kwd])) { units, currency in
            let money = Money(Self.amount(units, extraDigits: 0, currency: currency!), currency!)
            let parsed = Money(string: money.string, currency: currency!)
            #expect(parsed == money)
        }
    }
}
