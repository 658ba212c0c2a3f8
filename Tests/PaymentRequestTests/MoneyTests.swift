import Foundation
import PaymentRequest
import Testing

@Suite("Money, currencies and countries")
struct MoneyTests {
    @Test(arguments: ["0", "10", "10.00", "-4.50", "0.001", "100000000", "007"])
    func acceptsTheAmountGrammar(_ amount: String) {
        #expect(AmountString.isValid(amount))
    }

    @Test(arguments: ["", "-", "10.", ".5", "-.5", "1e3", "+1", " 1", "1 ", "1,00", "1.0.0", "$1", "١٢", "0x10", "--1"])
    func rejectsEverythingElse(_ amount: String) {
        #expect(!AmountString.isValid(amount))
        #expect(AmountString.decimal(amount) == nil)
    }

    @Test func minorUnitsComeFromTheTable() {
        #expect(Currency(code: "JPY")?.minorUnits == 0)
        #expect(Currency(code: "USD")?.minorUnits == 2)
        #expect(Currency(code: "KWD")?.minorUnits == 3)
        #expect(Currency(code: "CLF")?.minorUnits == 4)
        #expect(Currency(code: "usd") == nil)
        #expect(Currency(code: "XAU") == nil)  // no minor unit: not payable
        #expect(Currency.all.count == 169)
    }

    @Test func numericCodesComeFromTheSameTable() {
        #expect(Currency(code: "USD")?.numericCode == "840")
        #expect(Currency(code: "ALL")?.numericCode == "008")  // leading zeros kept
        #expect(Currency(code: "JPY")?.numericCode == "392")
        #expect(Currency.all.allSatisfy { $0.numericCode.count == 3 && $0.numericCode.allSatisfy(\.isNumber) })
    }

    @Test func countryCodesAreExact() {
        #expect(CountryCode.isValid("US") && CountryCode.isValid("GB") && CountryCode.isValid("AX"))
        #expect(!CountryCode.isValid("us") && !CountryCode.isValid("UK") && !CountryCode.isValid("USA"))
        #expect(CountryCode.all.count == 249)
    }

    @Test func stringsHaveExactlyTheCurrencyDigits() throws {
        let ten = try #require(Decimal(string: "10"))
        #expect(Money(ten, .usd).string == "10.00")
        #expect(Money(ten, .jpy).string == "10")
        #expect(Money(ten, .kwd).string == "10.000")
        #expect(Money(-ten / 4, .usd).string == "-2.50")
        #expect(Money(0, .usd).string == "0.00")
        #expect(Money(ten, .usd).description == "USD 10.00")
    }

    @Test func roundingIsHalfUpAwayFromZero() throws {
        func usd(_ text: String) throws -> String { Money(try #require(Decimal(string: text)), .usd).string }
        #expect(try usd("0.005") == "0.01")
        #expect(try usd("0.015") == "0.02")  // bankers' rounding would give 0.02 too; 0.025 tells them apart
        #expect(try usd("0.025") == "0.03")
        #expect(try usd("-0.005") == "-0.01")
        #expect(try usd("0.0049") == "0.00")
        #expect(Money(try #require(Decimal(string: "2.5")), .jpy).string == "3")
        #expect(Money(try #require(Decimal(string: "0.0005")), .kwd).string == "0.001")
    }

    @Test func parsingKeepsEveryDigit() throws {
        let money = try #require(Money(string: "12345678901234.56", currency: .usd))
        #expect(money.string == "12345678901234.56")
        #expect(AmountString.fractionDigits("1.250") == 3)
    }
}
