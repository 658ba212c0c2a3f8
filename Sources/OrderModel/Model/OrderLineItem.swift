public import Foundation
public import PassModel
import PaymentRequest

/// One item of an order.
public typealias OrderLineItem = OrderObject<OrderLineItemFields>

/// The typed keys of ``OrderLineItem``.
public struct OrderLineItemFields: OrderKeyedFields {
    /// The item's name.
    public var title: String?
    /// A second line, such as the size or colour.
    public var subtitle: String?
    /// The item's image path in the bundle.
    public var image: String?
    /// How many were bought.
    public var quantity: Decimal?
    /// The price of one.
    public var price: OrderCurrencyAmount?
    /// The merchant's stock-keeping unit.
    public var sku: String?
    /// The Global Trade Item Number (EAN, UPC, ISBN).
    public var gtin: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case title, subtitle, image, quantity, price, sku, gtin
    }
}

/// An amount of money in a currency, Apple's `CurrencyAmount`: `{"amount": "19.99", "currency": "USD"}`.
///
/// The amount is kept as its exact decimal text, never as a binary floating-point number. It is read from a decimal
/// string (Apple's type) or a JSON number (as templates and data documents may write it), and always written as a
/// string with the currency's minor-unit digits (``normalizedAmount``): `12.5` USD is written `"12.50"`, `4800` JPY
/// `"4800"`.
public struct OrderCurrencyAmount: Sendable, Equatable {
    /// The amount as decimal text, as it was read (`19.99`).
    public var amount: String?
    /// The ISO 4217 currency code.
    public var currency: String?
    /// Keys this model does not type.
    public var unknownKeys: [String: JSONValue] = [:]

    /// Creates an amount.
    /// - Parameters:
    ///   - amount: The decimal text.
    ///   - currency: The ISO 4217 code.
    public init(amount: String?, currency: String?) {
        self.amount = amount
        self.currency = currency
    }

    /// The amount as a `Decimal`, when it is decimal text.
    public var decimal: Decimal? {
        amount.flatMap(AmountString.decimal)
    }

    /// The amount as `order.json` gets it: with exactly the currency's minor-unit digits (`"12.50"` for 12.5 USD,
    /// `"4800"` for JPY, `"4.500"` for KWD), or as it was read when it is not a decimal, the currency is unknown, or
    /// it has more digits than the currency (which the validator reports).
    public var normalizedAmount: String? {
        guard let amount, let decimal, let currency = currency.flatMap({ Currency(code: $0) }),
              let digits = AmountString.fractionDigits(amount), digits <= currency.minorUnits
        else { return amount }
        return Money(decimal, currency).string
    }
}

/// How the order was paid.
public typealias OrderPayment = OrderObject<OrderPaymentFields>

/// The typed keys of ``OrderPayment``.
public struct OrderPaymentFields: OrderKeyedFields {
    /// The total paid.
    public var total: OrderCurrencyAmount?
    /// `pending`, `authorized`, `paid`, `refunded`, `declined` or `voided`.
    public var status: String?
    /// The methods used, as Wallet shows them: strings such as "Visa ••••1234".
    public var paymentMethods: [String]?
    /// The breakdown of the total (subtotal, shipping, tax).
    public var summaryItems: [OrderSummaryItem]?
    /// The payments and refunds that make up the total.
    public var transactions: [OrderPaymentTransaction]?
    /// Apple Pay transactions to link besides the original one, which Wallet links by itself.
    public var applePayTransactionIdentifiers: [String]?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case total, status, paymentMethods, summaryItems, transactions, applePayTransactionIdentifiers
    }
}

/// One payment or refund of an order's payment (Apple's `PaymentTransaction`).
public typealias OrderPaymentTransaction = OrderObject<OrderPaymentTransactionFields>

/// The typed keys of ``OrderPaymentTransaction``.
public struct OrderPaymentTransactionFields: OrderKeyedFields {
    /// The amount of this transaction.
    public var amount: OrderCurrencyAmount?
    /// When it happened (RFC 3339).
    public var createdAt: String?
    /// The card or account used.
    public var paymentMethod: OrderPaymentMethod?
    /// `pending`, `approved`, `completed`, `cancelled` or `failed`.
    public var status: String?
    /// `purchase` or `refund`.
    public var transactionType: String?
    /// The Apple Pay transaction's identifier.
    public var applePayTransactionIdentifier: String?
    /// A receipt file in the bundle.
    public var receipt: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case amount, createdAt, paymentMethod, status, transactionType, applePayTransactionIdentifier, receipt
    }
}

/// The card or account of a payment transaction, as Wallet shows it (Apple's `PaymentMethod`).
public typealias OrderPaymentMethod = OrderObject<OrderPaymentMethodFields>

/// The typed keys of ``OrderPaymentMethod``.
public struct OrderPaymentMethodFields: OrderKeyedFields {
    /// The text shown, such as "Visa ••••1234".
    public var displayName: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName
    }
}

/// One line of the payment's breakdown.
public typealias OrderSummaryItem = OrderObject<OrderSummaryItemFields>

/// The typed keys of ``OrderSummaryItem``.
public struct OrderSummaryItemFields: OrderKeyedFields {
    /// The label ("Shipping").
    public var label: String?
    /// The amount.
    public var value: OrderCurrencyAmount?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case label, value
    }
}

/// A barcode Wallet shows with an order or a pickup.
public typealias OrderBarcode = OrderObject<OrderBarcodeFields>

/// The typed keys of ``OrderBarcode``.
public struct OrderBarcodeFields: OrderKeyedFields {
    /// The encoded message.
    public var message: String?
    /// `qr`, `aztec`, `pdf417` or `code128`.
    public var format: String?
    /// The message's encoding (`iso-8859-1`, `utf-8`).
    public var messageEncoding: String?
    /// Text shown under the barcode.
    public var altText: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case message, format, messageEncoding, altText
    }
}

extension OrderPaymentFields {
    /// Decodes the payment, reading each of `paymentMethods` as Apple's string and also, for orders stored before
    /// the model followed Apple's schema, as an object `{"displayName": "Visa ••••1234"}`, which is then written as
    /// its string.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        total = try c.decodeIfPresent(OrderCurrencyAmount.self, forKey: .total)
        status = try c.decodeIfPresent(String.self, forKey: .status)
        paymentMethods = try c.decodeIfPresent([PaymentMethodText].self, forKey: .paymentMethods)?.map(\.text)
        summaryItems = try c.decodeIfPresent([OrderSummaryItem].self, forKey: .summaryItems)
        transactions = try c.decodeIfPresent([OrderPaymentTransaction].self, forKey: .transactions)
        applePayTransactionIdentifiers = try c.decodeIfPresent([String].self, forKey: .applePayTransactionIdentifiers)
    }

    /// One of `paymentMethods`: a string, or the object form stored by earlier versions.
    private struct PaymentMethodText: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self.text = text
                return
            }
            struct Legacy: Decodable { let displayName: String }
            guard let legacy = try? Legacy(from: decoder) else {
                throw DecodingError.typeMismatch(String.self, .init(
                    codingPath: decoder.codingPath, debugDescription: "expected a string such as \"Visa ••••1234\""))
            }
            text = legacy.displayName
        }
    }
}
