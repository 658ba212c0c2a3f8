/// The five pass styles; each is a top-level key of `pass.json` holding the pass's fields.
public enum PassStyle: String, CaseIterable, Sendable, Codable {
    /// A boarding pass (`boardingPass`), which also needs a `transitType`.
    case boardingPass
    /// A coupon (`coupon`).
    case coupon
    /// An event ticket (`eventTicket`).
    case eventTicket
    /// A generic pass (`generic`).
    case generic
    /// A store card (`storeCard`).
    case storeCard
}
