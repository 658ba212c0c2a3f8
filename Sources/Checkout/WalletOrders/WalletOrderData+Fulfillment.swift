import Foundation
import OrderModel
import PaymentRequest

extension WalletOrderData {
    /// The session's shipping method as a fulfillment: a pickup at the method's place, or a shipment to the shipping
    /// contact with the method's delivery window; `nil` when nothing ships.
    func fulfillment(_ order: CheckoutOrder) -> OrderFulfillment? {
        guard let identifier = order.shippingMethod,
              let method = merchant.shippingMethods.first(where: { $0.identifier == identifier })
        else { return nil }
        let days = BusinessDayCalendar(calendar: calendar, now: { order.createdAt })
        let first = days.date(addingBusinessDays: method.minimumBusinessDays)
        let last = days.date(addingBusinessDays: method.maximumBusinessDays)
        // The window runs from the start of the first day to the end of the last.
        let windowDays = (calendar.dateComponents([.day], from: first, to: last).day ?? 0) + 1
        if let place = method.pickup {
            var pickup = OrderPickupFulfillment()
            pickup.fulfillmentIdentifier = "\(order.id)-1"
            pickup.status = "open"
            pickup.displayName = place.displayName
            pickup.notes = place.notes
            pickup.pickupAt = ISO8601.string(first)
            pickup.pickupWindowDuration = "P\(windowDays)D"
            return .pickup(pickup)
        }
        var shipping = OrderShippingFulfillment()
        shipping.fulfillmentIdentifier = "\(order.id)-1"
        shipping.status = "open"
        shipping.shippingType = "shipping"
        shipping.notes = method.label  // The method the buyer chose, such as "Express".
        shipping.estimatedDeliveryAt = ISO8601.string(first)
        shipping.estimatedDeliveryWindowDuration = "P\(windowDays)D"
        shipping.recipient = order.shippingContact.map(Self.recipient)
        return .shipping(shipping)
    }

    private static func recipient(_ contact: ApplePayPaymentContact) -> OrderRecipient {
        var recipient = OrderRecipient()
        recipient.givenName = contact.givenName
        recipient.familyName = contact.familyName
        var address = OrderAddress()
        address.addressLines = contact.addressLines
        address.subLocality = contact.subLocality
        address.locality = contact.locality
        address.subAdministrativeArea = contact.subAdministrativeArea
        address.administrativeArea = contact.administrativeArea
        address.postalCode = contact.postalCode
        address.countryCode = contact.countryCode?.uppercased()
        if address != OrderAddress() { recipient.address = address }
        return recipient
    }
}
