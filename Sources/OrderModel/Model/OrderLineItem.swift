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
    /// The Global Trade Item Number.
    public var gtin: String?
    /// The merchant's product identifier.
    public var productIdentifier: String?

    /// No keys set.
    public init() {}

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case title, subtitle, image, quantity, price, sku, gtin, productIdentifier
    }
}

/// An amount of money in a currency, as `order.json` writes it: `{"amount": 19.99, "currency": "USD"}`.
///
/// The amount is kept as its exact decimal text, never as a binary floating-point number; it is read from a JSON
/// number or a decimal string and written back the way it was read.
public struct OrderCurrencyAmount: Sendable, Equatable {
    /// The amount as decimal text (`19.99`).
    public var amount: String?
    /// Whether `order.json` gave the amount as a JSON string rather than a number.
    public var amountIsString: Bool
    /// The ISO 4217 currency code.
    public var currency: String?
    /// Keys this model does not type.
    public var unknownKeys: [String: JSONValue] = [:]

    /// Creates an amount.
    /// - Parameters:
    ///   - amount: The decimal text.
    ///   - currency: The ISO 4217 code.
    ///   - amountIsString: Whether to write the amount as a JSON string.
    public init(amount: String?, currency: String?, amountIsString: Bool = false) {
        self.amount = amount
        self.currency = currency
        self.amountIsString = amountIsString
    }

    /// The amount as a `Decimal`, when it is decimal text.
    public var decimal: Decimal? {
        amount.flatMap(AmountString.decimal)
    }
}

/// How the order was paid.
public typealias OrderPayment = OrderObject<OrderPaymentFields>

/// The typed keys of ``OrderPayment``.
public struct OrderPaymentFields: OrderKeyedFields {
    /// The total paid.
    public var total: OrderCurrencyAmount?
    /// `pending`, `authorized`, `paid`, `refunded` or `cancelled`.
    public var status: String?
    /// The methods used, as Wallet shows them ("Visa ••••1234").
    public var paymentMethods: [OrderPaymentMethod]?
    /// The breakdown of the total (subtotal, shipping, tax).
    public var summaryItems: [OrderSummaryItem]?

    /// No keys set.
    public init() {}

    /// Payment keys Apple documents that this model keeps in ``unknownKeys`` without typing them.
    public static let documentedUntypedKeys: Set<String> = ["transactions", "applePayTransactionIdentifier"]

    /// The keys of `order.json` this type reads and writes.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case total, status, paymentMethods, summaryItems
    }
}

/// A payment method as Wallet shows it.
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
    /// The message's encoding (`iso-8859-1`).
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
