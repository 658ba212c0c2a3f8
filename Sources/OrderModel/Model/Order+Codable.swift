// The Codable conformances of the order model: every typed key is read and written by name, and every other key is
// kept in `unknownKeys` and written back, as `Pass` does for pass.json.
public import Foundation
import PassModel

extension Order: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "schemaVersion", "orderTypeIdentifier", "orderIdentifier", "orderType", "orderNumber", "createdAt",
        "updatedAt", "status", "statusDescription", "merchant", "orderManagementURL", "webServiceURL",
        "authenticationToken", "changeNotifications", "customer", "lineItems", "payment", "fulfillments", "returns",
        "barcode",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        schemaVersion = try c.decode("schemaVersion")
        orderTypeIdentifier = try c.decode("orderTypeIdentifier")
        orderIdentifier = try c.decode("orderIdentifier")
        orderType = try c.decode("orderType")
        orderNumber = try c.decode("orderNumber")
        createdAt = try c.decode("createdAt")
        updatedAt = try c.decode("updatedAt")
        status = try c.decode("status")
        statusDescription = try c.decode("statusDescription")
        merchant = try c.decode("merchant")
        orderManagementURL = try c.decode("orderManagementURL")
        webServiceURL = try c.decode("webServiceURL")
        authenticationToken = try c.decode("authenticationToken")
        changeNotifications = try c.decode("changeNotifications")
        customer = try c.decode("customer")
        lineItems = try c.decode("lineItems", as: [OrderLineItem].self)
        payment = try c.decode("payment")
        fulfillments = try c.decode("fulfillments", as: [OrderFulfillment].self)
        returns = try c.decode("returns", as: [OrderReturn].self)
        barcode = try c.decode("barcode")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(schemaVersion, "schemaVersion")
        try c.encode(orderTypeIdentifier, "orderTypeIdentifier")
        try c.encode(orderIdentifier, "orderIdentifier")
        try c.encode(orderType, "orderType")
        try c.encode(orderNumber, "orderNumber")
        try c.encode(createdAt, "createdAt")
        try c.encode(updatedAt, "updatedAt")
        try c.encode(status, "status")
        try c.encode(statusDescription, "statusDescription")
        try c.encode(merchant, "merchant")
        try c.encode(orderManagementURL, "orderManagementURL")
        try c.encode(webServiceURL, "webServiceURL")
        try c.encode(authenticationToken, "authenticationToken")
        try c.encode(changeNotifications, "changeNotifications")
        try c.encode(customer, "customer")
        try c.encode(lineItems, "lineItems")
        try c.encode(payment, "payment")
        try c.encode(fulfillments, "fulfillments")
        try c.encode(returns, "returns")
        try c.encode(barcode, "barcode")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderMerchant: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "displayName", "merchantIdentifier", "url", "logo", "businessChatURL", "address",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        displayName = try c.decode("displayName")
        merchantIdentifier = try c.decode("merchantIdentifier")
        url = try c.decode("url")
        logo = try c.decode("logo")
        businessChatURL = try c.decode("businessChatURL")
        address = try c.decode("address")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(displayName, "displayName")
        try c.encode(merchantIdentifier, "merchantIdentifier")
        try c.encode(url, "url")
        try c.encode(logo, "logo")
        try c.encode(businessChatURL, "businessChatURL")
        try c.encode(address, "address")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderCustomer: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "givenName", "familyName", "emailAddress", "phoneNumber", "organizationName",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        givenName = try c.decode("givenName")
        familyName = try c.decode("familyName")
        emailAddress = try c.decode("emailAddress")
        phoneNumber = try c.decode("phoneNumber")
        organizationName = try c.decode("organizationName")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(givenName, "givenName")
        try c.encode(familyName, "familyName")
        try c.encode(emailAddress, "emailAddress")
        try c.encode(phoneNumber, "phoneNumber")
        try c.encode(organizationName, "organizationName")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderAddress: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "addressLines", "subLocality", "locality", "subAdministrativeArea", "administrativeArea", "postalCode",
        "countryCode",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        addressLines = try c.decode("addressLines", as: [String].self)
        subLocality = try c.decode("subLocality")
        locality = try c.decode("locality")
        subAdministrativeArea = try c.decode("subAdministrativeArea")
        administrativeArea = try c.decode("administrativeArea")
        postalCode = try c.decode("postalCode")
        countryCode = try c.decode("countryCode")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(addressLines, "addressLines")
        try c.encode(subLocality, "subLocality")
        try c.encode(locality, "locality")
        try c.encode(subAdministrativeArea, "subAdministrativeArea")
        try c.encode(administrativeArea, "administrativeArea")
        try c.encode(postalCode, "postalCode")
        try c.encode(countryCode, "countryCode")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderLineItem: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "title", "subtitle", "image", "quantity", "price", "sku", "gtin", "productIdentifier",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        title = try c.decode("title")
        subtitle = try c.decode("subtitle")
        image = try c.decode("image")
        quantity = try c.decode("quantity")
        price = try c.decode("price")
        sku = try c.decode("sku")
        gtin = try c.decode("gtin")
        productIdentifier = try c.decode("productIdentifier")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(title, "title")
        try c.encode(subtitle, "subtitle")
        try c.encode(image, "image")
        try c.encode(quantity, "quantity")
        try c.encode(price, "price")
        try c.encode(sku, "sku")
        try c.encode(gtin, "gtin")
        try c.encode(productIdentifier, "productIdentifier")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderPayment: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "total", "status", "paymentMethods", "summaryItems",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        total = try c.decode("total")
        status = try c.decode("status")
        paymentMethods = try c.decode("paymentMethods", as: [OrderPaymentMethod].self)
        summaryItems = try c.decode("summaryItems", as: [OrderSummaryItem].self)
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(total, "total")
        try c.encode(status, "status")
        try c.encode(paymentMethods, "paymentMethods")
        try c.encode(summaryItems, "summaryItems")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderPaymentMethod: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "displayName",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        displayName = try c.decode("displayName")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(displayName, "displayName")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderSummaryItem: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "label", "value",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        label = try c.decode("label")
        value = try c.decode("value")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(label, "label")
        try c.encode(value, "value")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderBarcode: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = [
        "message", "format", "messageEncoding", "altText",
    ]

    /// Decodes every typed key, keeping the rest in `unknownKeys`.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        message = try c.decode("message")
        format = try c.decode("format")
        messageEncoding = try c.decode("messageEncoding")
        altText = try c.decode("altText")
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes every key that is set, then `unknownKeys`.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(message, "message")
        try c.encode(format, "format")
        try c.encode(messageEncoding, "messageEncoding")
        try c.encode(altText, "altText")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension OrderCurrencyAmount: Codable {
    /// The keys this type reads and writes itself.
    public static let typedKeys: Set<String> = ["amount", "currency"]

    /// Decodes the amount from a JSON number or a decimal string, keeping its exact text.
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(amount: nil, currency: try c.decode("currency"))
        let key = AnyCodingKey("amount")
        if let text = try? c.decodeIfPresent(String.self, forKey: key) {
            amount = text
            amountIsString = true
        } else if let number = try c.decodeIfPresent(Decimal.self, forKey: key) {
            amount = "\(number)"
        }
        unknownKeys = try c.unknownKeys(excluding: Self.typedKeys)
    }

    /// Encodes the amount as it was read: a JSON number, or a string when it was one.
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        if let amount {
            if !amountIsString, let decimal { try c.encode(decimal, "amount") } else { try c.encode(amount, "amount") }
        }
        try c.encode(currency, "currency")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.typedKeys)
    }
}

extension Order {
    /// Reads `order.json`.
    /// - Parameter data: Its bytes.
    /// - Throws: `PassModelError` `.invalidJSON` naming the line and column, or the key with the wrong type.
    public init(jsonData data: Data) throws {
        do {
            self = try JSONCoding.decoder.decode(Order.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = CodingPath.reason(error, in: try? JSONValue(jsonData: data))
            let location = path.isEmpty ? "" : "\(CodingPath.string(path)): "
            throw PassModelError(.invalidJSON, "order.json: \(location)\(message)")
        } catch {
            throw JSONCoding.invalidJSON(data, error)
        }
    }

    /// `order.json` bytes: pretty-printed, keys sorted, slashes unescaped, unknown keys written back.
    /// - Returns: The JSON bytes.
    public func jsonData() throws -> Data {
        try JSONCoding.encode(self, sortedKeys: true, prettyPrinted: true)
    }
}
