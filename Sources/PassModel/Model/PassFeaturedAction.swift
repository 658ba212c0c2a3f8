/// An action Wallet draws below the pass (`featuredActions`, iOS 27 and later; at most 2 are shown).
public struct PassFeaturedAction: Codable, Sendable, Equatable {
    /// An identifier unique among the pass's actions; required.
    public var identifier: String?
    /// The kind of action from Apple's list (such as `membershipBenefits`); it decides the icon, the
    /// call to action and which value the action needs; required.
    public var type: String?
    /// The URL the action opens, for types that open a URL.
    public var url: String?
    /// The Maps place the action shows, for types that show a place.
    public var placeIdentifier: String?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates an action.
    /// - Parameters:
    ///   - identifier: An identifier unique among the pass's actions.
    ///   - type: The kind of action.
    ///   - url: The URL it opens, if its type opens one.
    ///   - placeIdentifier: The Maps place it shows, if its type shows one.
    public init(identifier: String?, type: String?, url: String? = nil, placeIdentifier: String? = nil) {
        self.identifier = identifier
        self.type = type
        self.url = url
        self.placeIdentifier = placeIdentifier
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = ["identifier", "type", "url", "placeIdentifier"]

    /// The action types Apple documents. Each opens its `url`, except `place`, which shows the Maps place
    /// named by `placeIdentifier`, and `call`, whose `url` may also be a `tel:` URL.
    public static let knownTypes = [
        "viewSchedule", "watchTrailer", "listenToMusic", "call", "place", "addToBalance", "order", "shop",
        "membershipBenefits", "bookAppointment", "bookCar", "bookFlight", "bookStay", "viewOffersRewards",
    ]

    /// The type that shows a Maps place (`placeIdentifier`) rather than opening a URL.
    public static let placeType = "place"

    /// The type that calls a phone number; its `url` may be a `tel:` URL.
    public static let callType = "call"

    /// Decodes an action, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        identifier = try c.decode("identifier")
        type = try c.decode("type")
        url = try c.decode("url")
        placeIdentifier = try c.decode("placeIdentifier")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the action, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(identifier, "identifier")
        try c.encode(type, "type")
        try c.encode(url, "url")
        try c.encode(placeIdentifier, "placeIdentifier")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
