public import Foundation
public import PassModel

/// A template's `order.json` decoded once and encoded member by member, so that an order made from the template
/// decodes and encodes only the top-level members its data document touches.
///
/// Decoding an order and writing it again in Apple's types (`JSONDecoder`, then `JSONEncoder` with sorted keys) costs
/// several times more than the data a typical document carries (an identifier, a number, a customer): most of the
/// order is the template's, the same for every order. The template's order is decoded when the template is loaded,
/// and each of its top-level members encoded alone. For an order, each member the data names is merged into the
/// template's member as ``OrderTemplate/orderJSON(applying:prettyPrinted:)`` merges it, and only those members are
/// decoded; the order is the template's with them set, and its `order.json` the template's fragments with theirs.
struct PreparedOrderTemplate: Sendable {
    /// The template's order, decoded with no type error.
    let order: Order
    /// Each top-level member of the template's order encoded alone as `"key":value` (compact, sorted keys, slashes
    /// unescaped), by key.
    let members: [String: [UInt8]]

    /// Decodes and encodes the template's `order.json`, or gives `nil` when any of it does not decode (a value of the
    /// wrong type, which a data document might replace): such a template takes the full path for every order.
    init?(root: [String: JSONValue]) {
        guard let bytes = try? JSONValue.object(root).jsonData(sortedKeys: false, prettyPrinted: false),
              let order = try? JSONCoding.decoder.decode(Order.self, from: bytes)
        else { return nil }
        var members: [String: [UInt8]] = [:]
        for key in Self.keys(of: order) {
            guard let member = Self.member(key, of: order) else { return nil }
            members[key] = member
        }
        self.order = order
        self.members = members
    }

    /// The order a data document's members make, and the keys of the top-level members they changed; `nil` when any
    /// changed member does not decode (the caller then decodes the whole merged document, which reports it).
    /// - Parameters:
    ///   - changes: The data document's members (`null` removes a key).
    ///   - root: The template's members.
    func order(applying changes: [String: JSONValue], root: [String: JSONValue]) -> (order: Order, changed: Set<String>)? {
        var merged: [String: JSONValue] = [:]
        for (key, value) in changes {
            switch (value, root[key]) {
            case (.null, _): continue
            case (.object(let inner), .object(let existing)?): merged[key] = .object(OrderTemplate.merge(inner, into: existing))
            default: merged[key] = value
            }
        }
        var partial = Order()
        if !merged.isEmpty {
            guard let bytes = try? JSONValue.object(merged).jsonData(sortedKeys: false, prettyPrinted: false),
                  let decoded = try? JSONCoding.decoder.decode(Order.self, from: bytes)
            else { return nil }
            partial = decoded
        }
        var order = self.order
        for key in changes.keys {
            if let typed = OrderDocumentFields.CodingKeys(stringValue: key) {
                order.fields.take(typed, from: partial.fields)
            } else {
                order.unknownKeys[key] = partial.unknownKeys[key]
            }
        }
        return (order, Set(changes.keys))
    }

    /// `order.json` for an order made by ``order(applying:root:)``: compact, keys sorted, the same bytes
    /// `JSONEncoder` writes for the whole order, with the template's fragments for the members not in `changed`.
    /// - Returns: The bytes, or `nil` when a changed member cannot be encoded (the caller then encodes the whole order,
    ///   which names the value).
    func orderJSON(for order: Order, changed: Set<String>) -> Data? {
        var parts: [(key: String, bytes: [UInt8])] = []
        var size = 2
        for key in Self.keys(of: order) {
            let bytes: [UInt8]
            if !changed.contains(key), let cached = members[key] {
                bytes = cached
            } else {
                guard let encoded = Self.member(key, of: order) else { return nil }
                bytes = encoded
            }
            size += bytes.count + 1
            parts.append((key, bytes))
        }
        parts.sort { $0.key < $1.key }
        var result = Data(capacity: size)
        result.append(UInt8(ascii: "{"))
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(UInt8(ascii: ",")) }
            result.append(contentsOf: part.bytes)
        }
        result.append(UInt8(ascii: "}"))
        return result
    }

    /// The keys an order writes: its typed keys that are set and its unknown keys.
    private static func keys(of order: Order) -> [String] {
        var keys = OrderDocumentFields.CodingKeys.allCases.filter { order.fields.has($0) }.map(\.stringValue)
        keys += order.unknownKeys.keys.filter { OrderDocumentFields.CodingKeys(stringValue: $0) == nil }
        return keys
    }

    /// One member of an order encoded as `"key":value`: the order with only that member, encoded, without its braces.
    private static func member(_ key: String, of order: Order) -> [UInt8]? {
        var alone = Order()
        if let typed = OrderDocumentFields.CodingKeys(stringValue: key) {
            alone.fields.take(typed, from: order.fields)
        } else {
            alone.unknownKeys[key] = order.unknownKeys[key]
        }
        guard let bytes = try? JSONCoding.encode(alone, sortedKeys: true, prettyPrinted: false),
              bytes.count > 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}")
        else { return nil }
        return [UInt8](bytes.dropFirst().dropLast())
    }
}

extension OrderDocumentFields {
    /// Whether a typed key is set.
    func has(_ key: CodingKeys) -> Bool {
        switch key {
        case .schemaVersion: schemaVersion != nil
        case .orderTypeIdentifier: orderTypeIdentifier != nil
        case .orderIdentifier: orderIdentifier != nil
        case .orderType: orderType != nil
        case .orderNumber: orderNumber != nil
        case .createdAt: createdAt != nil
        case .updatedAt: updatedAt != nil
        case .status: status != nil
        case .statusDescription: statusDescription != nil
        case .merchant: merchant != nil
        case .orderManagementURL: orderManagementURL != nil
        case .webServiceURL: webServiceURL != nil
        case .authenticationToken: authenticationToken != nil
        case .changeNotifications: changeNotifications != nil
        case .customer: customer != nil
        case .lineItems: lineItems != nil
        case .payment: payment != nil
        case .fulfillments: fulfillments != nil
        case .returns: returns != nil
        case .barcode: barcode != nil
        case .returnInfo: returnInfo != nil
        case .orderProvider: orderProvider != nil
        case .associatedApplications: associatedApplications != nil
        case .associatedApplicationIdentifiers: associatedApplicationIdentifiers != nil
        }
    }

    /// Sets a typed key to another value's (`nil` when that one has none).
    mutating func take(_ key: CodingKeys, from other: Self) {
        switch key {
        case .schemaVersion: schemaVersion = other.schemaVersion
        case .orderTypeIdentifier: orderTypeIdentifier = other.orderTypeIdentifier
        case .orderIdentifier: orderIdentifier = other.orderIdentifier
        case .orderType: orderType = other.orderType
        case .orderNumber: orderNumber = other.orderNumber
        case .createdAt: createdAt = other.createdAt
        case .updatedAt: updatedAt = other.updatedAt
        case .status: status = other.status
        case .statusDescription: statusDescription = other.statusDescription
        case .merchant: merchant = other.merchant
        case .orderManagementURL: orderManagementURL = other.orderManagementURL
        case .webServiceURL: webServiceURL = other.webServiceURL
        case .authenticationToken: authenticationToken = other.authenticationToken
        case .changeNotifications: changeNotifications = other.changeNotifications
        case .customer: customer = other.customer
        case .lineItems: lineItems = other.lineItems
        case .payment: payment = other.payment
        case .fulfillments: fulfillments = other.fulfillments
        case .returns: returns = other.returns
        case .barcode: barcode = other.barcode
        case .returnInfo: returnInfo = other.returnInfo
        case .orderProvider: orderProvider = other.orderProvider
        case .associatedApplications: associatedApplications = other.associatedApplications
        case .associatedApplicationIdentifiers: associatedApplicationIdentifiers = other.associatedApplicationIdentifiers
        }
    }
}
