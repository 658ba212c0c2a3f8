public import Foundation

/// Counts business days (Monday to Friday in the calendar's time zone) from an injected clock, for delivery and
/// pickup estimates.
public struct BusinessDayCalendar: Sendable {
    /// The calendar whose time zone and weekend rules are used.
    public var calendar: Calendar
    /// The clock.
    public var now: @Sendable () -> Date

    /// Creates a business-day calendar.
    /// - Parameters:
    ///   - calendar: Gregorian in the merchant's time zone, usually.
    ///   - now: The clock (inject a fixed date in tests).
    public init(calendar: Calendar = Calendar(identifier: .gregorian), now: @escaping @Sendable () -> Date = { Date() }) {
        self.calendar = calendar
        self.now = now
    }

    /// The day `count` business days after today; with 0, today when it is a business day, else the next one.
    /// - Parameter count: Business days to add.
    /// - Returns: The start of that day.
    public func date(addingBusinessDays count: Int) -> Date {
        var day = calendar.startOfDay(for: now())
        while calendar.isDateInWeekend(day) { day = next(day) }
        var remaining = count
        while remaining > 0 {
            day = next(day)
            if !calendar.isDateInWeekend(day) { remaining -= 1 }
        }
        return day
    }

    /// The Apple Pay date components (year, month, day) of a date in this calendar.
    /// - Parameter date: A date.
    /// - Returns: Its components.
    public func components(of date: Date) -> ApplePayDateComponents {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return ApplePayDateComponents(years: parts.year, months: parts.month, days: parts.day)
    }

    /// The estimate for a range of business days, as a `dateComponentsRange`.
    /// - Parameter businessDays: Such as `3...5`.
    /// - Returns: The first and last possible day.
    public func range(_ businessDays: ClosedRange<Int>) -> ApplePayDateComponentsRange {
        ApplePayDateComponentsRange(startDateComponents: components(of: date(addingBusinessDays: businessDays.lowerBound)),
                                    endDateComponents: components(of: date(addingBusinessDays: businessDays.upperBound)))
    }

    private func next(_ day: Date) -> Date {
        calendar.date(byAdding: .day, value: 1, to: day) ?? day.addingTimeInterval(86_400)
    }
}

/// A delivery or pickup choice the builder turns into an `ApplePayShippingMethod` with dates.
public struct ShippingOption: Hashable, Sendable {
    /// The merchant's identifier.
    public var identifier: String
    /// Short name, such as "Standard".
    public var label: String
    /// Cost; never negative.
    public var amount: Decimal
    /// Business days until delivery or pickup, such as `3...5`.
    public var businessDays: ClosedRange<Int>
    /// Detail to show instead of the computed "Arrives in 3-5 business days".
    public var detail: String?

    /// Creates a shipping option.
    /// - Parameters:
    ///   - identifier: The merchant's identifier.
    ///   - label: Short name.
    ///   - amount: Cost.
    ///   - businessDays: Business days until delivery or pickup.
    ///   - detail: Detail overriding the computed one.
    public init(identifier: String, label: String, amount: Decimal, businessDays: ClosedRange<Int>,
                detail: String? = nil) {
        self.identifier = identifier
        self.label = label
        self.amount = amount
        self.businessDays = businessDays
        self.detail = detail
    }

    /// "Arrives in 3-5 business days", "Ready for pickup in 1 business day", "Arrives today".
    /// - Parameter shippingType: Pickup types say "Ready for pickup".
    /// - Returns: The detail line.
    public func computedDetail(for shippingType: ShippingType?) -> String {
        if let detail { return detail }
        let pickup = shippingType == .storePickup || shippingType == .servicePickup
        let verb = pickup ? "Ready for pickup" : "Arrives"
        let low = businessDays.lowerBound
        let high = businessDays.upperBound
        if high == 0 { return "\(verb) today" }
        let span = low == high ? "\(high)" : "\(low)-\(high)"
        return "\(verb) in \(span) business day\(high == 1 ? "" : "s")"
    }
}
