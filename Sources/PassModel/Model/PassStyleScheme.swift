/// A value of `preferredStyleSchemes`: a layout Wallet uses when the device supports it and the pass
/// qualifies for it, falling back to the next one and finally to the pass's own style.
public struct PassStyleScheme: PassEnumeration {
    /// The scheme name as written in `pass.json`.
    public var rawValue: String
    /// Wraps a raw value.
    /// - Parameter rawValue: The scheme name, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The poster event ticket (iOS 18 and later): artwork, semantics-driven header and event guide.
    public static let posterEventTicket = Self(rawValue: "posterEventTicket")
    /// The classic event ticket layout.
    public static let eventTicket = Self(rawValue: "eventTicket")
    /// The semantic boarding pass (iOS 26 and later): flight details drawn from `semantics`.
    public static let semanticBoardingPass = Self(rawValue: "semanticBoardingPass")
    /// The classic boarding pass layout.
    public static let boardingPass = Self(rawValue: "boardingPass")
    /// The documented schemes.
    public static let knownValues: [Self] = [.posterEventTicket, .eventTicket, .semanticBoardingPass, .boardingPass]

    /// The style key a pass needs for this scheme to apply; `nil` for an unknown scheme.
    public var style: PassStyle? {
        switch self {
        case .posterEventTicket, .eventTicket: return .eventTicket
        case .semanticBoardingPass, .boardingPass: return .boardingPass
        default: return nil
        }
    }

    /// Whether this is one of the new layouts with requirements of their own (not a classic style name).
    public var isEnhanced: Bool { self == .posterEventTicket || self == .semanticBoardingPass }
}
