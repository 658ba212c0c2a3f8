import Foundation
import PassModel

extension OrderValidator {
    func checkLineItems(_ items: [OrderLineItem], at prefix: String = "", context: inout ValidationContext) {
        for (index, item) in items.enumerated() {
            let path = "\(prefix)lineItems[\(index)]"
            Self.required(item.title, at: "\(path).title", context: &context)
            if let quantity = item.quantity {
                if quantity <= 0 { context.error("\(path).quantity", "must be more than 0, found \(quantity)") }
            } else {
                context.error("\(path).quantity", "required key is missing")
            }
            Self.money(item.price, at: "\(path).price", context: &context)
            PassValidator.warnUnknownKeys(item.unknownKeys, at: path, context: &context)
        }
    }

    func checkPayment(_ payment: OrderPayment?, context: inout ValidationContext) {
        guard let payment else { return }
        let currency = Self.money(payment.total, at: "payment.total", required: true, context: &context)
        Self.known(payment.status, OrderStatusValues.payment, at: "payment.status", required: true, context: &context)
        for (index, method) in (payment.paymentMethods ?? []).enumerated() {
            Self.required(method, at: "payment.paymentMethods[\(index)]", context: &context)
        }
        for (index, item) in (payment.summaryItems ?? []).enumerated() {
            let path = "payment.summaryItems[\(index)]"
            Self.required(item.label, at: "\(path).label", context: &context)
            let itemCurrency = Self.money(item.value, at: "\(path).value", required: true, context: &context)
            if let currency, let itemCurrency, itemCurrency != currency {
                context.error("\(path).value.currency", "\(itemCurrency) differs from the total's \(currency)")
            }
            PassValidator.warnUnknownKeys(item.unknownKeys, at: path, context: &context)
        }
        for (index, transaction) in (payment.transactions ?? []).enumerated() {
            checkTransaction(transaction, at: "payment.transactions[\(index)]", context: &context)
        }
        for (index, identifier) in (payment.applePayTransactionIdentifiers ?? []).enumerated() {
            Self.required(identifier, at: "payment.applePayTransactionIdentifiers[\(index)]", context: &context)
        }
        PassValidator.warnUnknownKeys(payment.unknownKeys, at: "payment", context: &context)
    }

    private func checkTransaction(_ transaction: OrderPaymentTransaction, at path: String,
                                  context: inout ValidationContext) {
        Self.money(transaction.amount, at: "\(path).amount", required: true, context: &context)
        Self.date(transaction.createdAt, at: "\(path).createdAt", required: true, context: &context)
        if let method = transaction.paymentMethod {
            Self.required(method.displayName, at: "\(path).paymentMethod.displayName", context: &context)
            PassValidator.warnUnknownKeys(method.unknownKeys, at: "\(path).paymentMethod", context: &context)
        } else {
            context.error("\(path).paymentMethod", "required key is missing")
        }
        Self.known(transaction.status, OrderStatusValues.transaction, at: "\(path).status", required: true,
                   context: &context)
        Self.known(transaction.transactionType, OrderStatusValues.transactionTypes, at: "\(path).transactionType",
                   required: true, context: &context)
        PassValidator.warnUnknownKeys(transaction.unknownKeys, at: path, context: &context)
    }

    func checkFulfillments(_ fulfillments: [OrderFulfillment], context: inout ValidationContext) {
        var seen: [String: Int] = [:]
        for (index, fulfillment) in fulfillments.enumerated() {
            let path = "fulfillments[\(index)]"
            Self.required(fulfillment.fulfillmentIdentifier, at: "\(path).fulfillmentIdentifier", context: &context)
            if let identifier = fulfillment.fulfillmentIdentifier, !identifier.isEmpty {
                if let first = seen[identifier] {
                    context.error("\(path).fulfillmentIdentifier", "\"\(identifier)\" is also fulfillments[\(first)]'s")
                } else {
                    seen[identifier] = index
                }
            }
            switch fulfillment {
            case .shipping(let shipping): checkShipping(shipping, at: path, context: &context)
            case .pickup(let pickup): checkPickup(pickup, at: path, context: &context)
            }
        }
    }

    private func checkShipping(_ shipping: OrderShippingFulfillment, at path: String, context: inout ValidationContext) {
        Self.known(shipping.status, OrderStatusValues.shipping, at: "\(path).status", required: true, context: &context)
        Self.known(shipping.shippingType, OrderStatusValues.shippingTypes, at: "\(path).shippingType", context: &context)
        Self.httpsURL(shipping.trackingURL, at: "\(path).trackingURL", context: &context)
        if shipping.trackingURL != nil || shipping.trackingNumber != nil {
            if shipping.carrier == nil { context.warning("\(path).carrier", "name the carrier of the tracking number") }
        }
        let shipped = Self.date(shipping.shippedAt, at: "\(path).shippedAt", context: &context)
        Self.date(shipping.estimatedDeliveryAt, at: "\(path).estimatedDeliveryAt", context: &context)
        Self.duration(shipping.estimatedDeliveryWindowDuration, at: "\(path).estimatedDeliveryWindowDuration",
                      context: &context)
        let delivered = Self.date(shipping.deliveredAt, at: "\(path).deliveredAt", context: &context)
        if let shipped, let delivered, delivered < shipped {
            context.error("\(path).deliveredAt", "is before shippedAt")
        }
        if shipping.status == "delivered", shipping.deliveredAt == nil {
            context.warning("\(path).deliveredAt", "a delivered shipment should say when it was delivered")
        }
        if let recipient = shipping.recipient {
            if let address = recipient.address { checkAddress(address, at: "\(path).recipient.address", context: &context) }
            PassValidator.warnUnknownKeys(recipient.unknownKeys, at: "\(path).recipient", context: &context)
        }
        checkLineItems(shipping.lineItems ?? [], at: "\(path).", context: &context)
        PassValidator.warnUnknownKeys(shipping.unknownKeys, at: path, context: &context)
    }

    private func checkPickup(_ pickup: OrderPickupFulfillment, at path: String, context: inout ValidationContext) {
        Self.known(pickup.status, OrderStatusValues.pickup, at: "\(path).status", required: true, context: &context)
        Self.required(pickup.displayName, at: "\(path).displayName", context: &context)
        Self.date(pickup.pickupAt, at: "\(path).pickupAt", context: &context)
        Self.duration(pickup.pickupWindowDuration, at: "\(path).pickupWindowDuration", context: &context)
        Self.date(pickup.pickedUpAt, at: "\(path).pickedUpAt", context: &context)
        if pickup.pickupWindowDuration != nil, pickup.pickupAt == nil {
            context.error("\(path).pickupAt", "required when pickupWindowDuration is given (the window starts there)")
        }
        if let address = pickup.address { checkAddress(address, at: "\(path).address", context: &context) }
        if let location = pickup.location { checkLocation(location, at: "\(path).location", context: &context) }
        if let barcode = pickup.barcode { checkBarcode(barcode, at: "\(path).barcode", context: &context) }
        checkLineItems(pickup.lineItems ?? [], at: "\(path).", context: &context)
        PassValidator.warnUnknownKeys(pickup.unknownKeys, at: path, context: &context)
    }

    private func checkLocation(_ location: OrderLocation, at path: String, context: inout ValidationContext) {
        for (key, value, limit) in [("latitude", location.latitude, 90.0), ("longitude", location.longitude, 180.0)] {
            guard let value else {
                context.error("\(path).\(key)", "required key is missing")
                continue
            }
            if !(-limit...limit).contains(value) {
                context.error("\(path).\(key)", "must be between -\(Int(limit)) and \(Int(limit)), found \(value)")
            }
        }
        PassValidator.warnUnknownKeys(location.unknownKeys, at: path, context: &context)
    }

    func checkReturns(_ returns: [OrderReturn], context: inout ValidationContext) {
        var seen: Set<String> = []
        for (index, item) in returns.enumerated() {
            let path = "returns[\(index)]"
            Self.required(item.returnIdentifier, at: "\(path).returnIdentifier", context: &context)
            if let identifier = item.returnIdentifier, !seen.insert(identifier).inserted {
                context.error("\(path).returnIdentifier", "\"\(identifier)\" appears twice")
            }
            Self.known(item.status, OrderStatusValues.returns, at: "\(path).status", required: true, context: &context)
            Self.date(item.initiatedAt, at: "\(path).initiatedAt", context: &context)
            Self.date(item.dropOffBy, at: "\(path).dropOffBy", context: &context)
            Self.date(item.returnedAt, at: "\(path).returnedAt", context: &context)
            Self.httpsURL(item.returnManagementURL, at: "\(path).returnManagementURL", context: &context)
            checkLineItems(item.lineItems ?? [], at: "\(path).", context: &context)
            PassValidator.warnUnknownKeys(item.unknownKeys, at: path, context: &context)
        }
    }
}
