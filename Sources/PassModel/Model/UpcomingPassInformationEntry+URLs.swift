extension UpcomingPassInformationEntry {
    /// The event-guide links of one upcoming event (Apple's `URLs`): the keys of the pass's own event guide,
    /// for this event.
    public struct URLs: Codable, Sendable, Equatable {
        /// Your or the venue's accessibility information.
        public var accessibilityURL: String?
        /// Add-ons and upgrades for the ticket.
        public var addOnURL: String?
        /// The venue's bag policy.
        public var bagPolicyURL: String?
        /// The email address of the venue, event or issuer.
        public var contactVenueEmail: String?
        /// The phone number of the venue, event or issuer.
        public var contactVenuePhoneNumber: String?
        /// The website of the venue, event or issuer.
        public var contactVenueWebsite: String?
        /// Directions to the venue.
        public var directionsInformationURL: String?
        /// Buying merchandise for the event.
        public var merchandiseURL: String?
        /// Ordering food at the venue.
        public var orderFoodURL: String?
        /// Parking information.
        public var parkingInformationURL: String?
        /// Buying parking.
        public var purchaseParkingURL: String?
        /// Selling the ticket.
        public var sellURL: String?
        /// Transferring the ticket.
        public var transferURL: String?
        /// Public transport to the venue.
        public var transitInformationURL: String?
        /// Keys this model does not know, written back as they were read.
        public var unknownKeys: [String: JSONValue]

        /// Creates an empty set of links.
        public init() {
            unknownKeys = [:]
        }

        /// Every member by Apple's key, in key order.
        public static let members: [(key: String, value: any WritableKeyPath<URLs, String?> & Sendable)] = [
            ("accessibilityURL", \.accessibilityURL),
            ("addOnURL", \.addOnURL),
            ("bagPolicyURL", \.bagPolicyURL),
            ("contactVenueEmail", \.contactVenueEmail),
            ("contactVenuePhoneNumber", \.contactVenuePhoneNumber),
            ("contactVenueWebsite", \.contactVenueWebsite),
            ("directionsInformationURL", \.directionsInformationURL),
            ("merchandiseURL", \.merchandiseURL),
            ("orderFoodURL", \.orderFoodURL),
            ("parkingInformationURL", \.parkingInformationURL),
            ("purchaseParkingURL", \.purchaseParkingURL),
            ("sellURL", \.sellURL),
            ("transferURL", \.transferURL),
            ("transitInformationURL", \.transitInformationURL),
        ]

        /// The keys that hold an `http(s)` URL (all but the email address and the phone number).
        public static let urlKeys: Set<String> = Set(members.map(\.key)).subtracting(["contactVenueEmail", "contactVenuePhoneNumber"])

        static let knownKeys: Set<String> = Set(members.map(\.key))

        /// Decodes the links, keeping unknown keys.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            accessibilityURL = try c.decode("accessibilityURL")
            addOnURL = try c.decode("addOnURL")
            bagPolicyURL = try c.decode("bagPolicyURL")
            contactVenueEmail = try c.decode("contactVenueEmail")
            contactVenuePhoneNumber = try c.decode("contactVenuePhoneNumber")
            contactVenueWebsite = try c.decode("contactVenueWebsite")
            directionsInformationURL = try c.decode("directionsInformationURL")
            merchandiseURL = try c.decode("merchandiseURL")
            orderFoodURL = try c.decode("orderFoodURL")
            parkingInformationURL = try c.decode("parkingInformationURL")
            purchaseParkingURL = try c.decode("purchaseParkingURL")
            sellURL = try c.decode("sellURL")
            transferURL = try c.decode("transferURL")
            transitInformationURL = try c.decode("transitInformationURL")
            unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
        }

        /// Encodes the links, unknown keys included.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode(accessibilityURL, "accessibilityURL")
            try c.encode(addOnURL, "addOnURL")
            try c.encode(bagPolicyURL, "bagPolicyURL")
            try c.encode(contactVenueEmail, "contactVenueEmail")
            try c.encode(contactVenuePhoneNumber, "contactVenuePhoneNumber")
            try c.encode(contactVenueWebsite, "contactVenueWebsite")
            try c.encode(directionsInformationURL, "directionsInformationURL")
            try c.encode(merchandiseURL, "merchandiseURL")
            try c.encode(orderFoodURL, "orderFoodURL")
            try c.encode(parkingInformationURL, "parkingInformationURL")
            try c.encode(purchaseParkingURL, "purchaseParkingURL")
            try c.encode(sellURL, "sellURL")
            try c.encode(transferURL, "transferURL")
            try c.encode(transitInformationURL, "transitInformationURL")
            try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
        }
    }
}
