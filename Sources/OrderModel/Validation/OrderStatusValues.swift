/// The values Apple's Wallet Orders reference documents for the enumerated keys of `order.json`, exactly (statuses in
/// the order they move forward).
public enum OrderStatusValues {
    /// `Order.orderType`.
    public static let orderTypes = ["ecommerce"]
    /// `Order.status`: an open order is completed or cancelled.
    public static let order = ["open", "completed", "cancelled"]
    /// `Order.changeNotifications`.
    public static let changeNotifications = ["enabled", "disabledIfAppInstalled"]
    /// `Payment.status`.
    public static let payment = ["pending", "authorized", "paid", "refunded", "declined", "voided"]
    /// `PaymentTransaction.status` (not the payment's own list).
    public static let transaction = ["pending", "approved", "completed", "cancelled", "failed"]
    /// `PaymentTransaction.transactionType`.
    public static let transactionTypes = ["purchase", "refund"]
    /// `ShippingFulfillment.status`, from placed to delivered, then the two that may happen at any time.
    public static let shipping = ["open", "processing", "onTheWay", "shipped", "outForDelivery", "delivered", "issue",
                                  "cancelled"]
    /// `ShippingFulfillment.shippingType`.
    public static let shippingTypes = ["shipping", "delivery"]
    /// `PickupFulfillment.status`, from placed to picked up, then the two that may happen at any time.
    public static let pickup = ["open", "processing", "readyForPickup", "pickedUp", "issue", "cancelled"]
    /// `Return.status`.
    public static let returns = ["open", "onTheWay", "processing", "issue", "completed", "cancelled"]
    /// `Barcode.format`.
    public static let barcodeFormats = ["qr", "aztec", "pdf417", "code128"]

    /// How far along a fulfillment status is: statuses of equal rank are alternatives (`onTheWay` and `shipped`),
    /// `issue` has none (it may come and go at any point) and the final statuses have the highest.
    /// - Parameters:
    ///   - status: The status.
    ///   - fulfillmentType: `shipping` or `pickup`.
    /// - Returns: The rank, or `nil` for `issue` and unknown values.
    public static func rank(of status: String, fulfillmentType: String) -> Int? {
        let ranks: [String: Int] = fulfillmentType == "pickup"
            ? ["open": 0, "processing": 1, "readyForPickup": 2, "pickedUp": 3, "cancelled": 3]
            : ["open": 0, "processing": 1, "onTheWay": 2, "shipped": 2, "outForDelivery": 3, "delivered": 4,
               "cancelled": 4]
        return ranks[status]
    }

    /// Whether a status is final: nothing follows `delivered`, `pickedUp` or `cancelled`.
    /// - Parameter status: The status.
    /// - Returns: `true` for a final status.
    public static func isFinal(_ status: String) -> Bool {
        ["delivered", "pickedUp", "cancelled", "completed"].contains(status)
    }
}
