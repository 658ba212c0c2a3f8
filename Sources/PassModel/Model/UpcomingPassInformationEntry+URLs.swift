extension UpcomingPassInformationEntry {
    /// The event-guide links of one upcoming event (Apple's `URLs`): the same keys as the pass's own
    /// event guide, for this event.
    public struct URLs: Codable, Sendable, Equatable {
        /// Each link by Apple's key (`accessibilityURL`, `contactVenueEmail`, ...); keys Apple does not
        /// document for entries are in ``unknownKeys``.
        public var links: [String: String]
        /// Keys this model does not know, written back as they were read.
        public var unknownKeys: [String: JSONValue]

        /// The keys that hold a URL.
        public static let urlKeys = [
            "accessibilityURL", "addOnURL", "bagPolicyURL", "contactVenueWebsite", "directionsInformationURL",
            "merchandiseURL", "orderFoodURL", "parkingInformationURL", "purchaseParkingURL", "sellURL",
            "transferURL", "transitInformationURL",
        ]

        /// Every key Apple documents: the URLs, the venue's email address and its phone number.
        public static let documentedKeys: Set<String> = Set(urlKeys + ["contactVenueEmail", "contactVenuePhoneNumber"])

        /// Creates the links of an entry.
        /// - Parameter links: Each link by Apple's key.
        public init(_ links: [String: String] = [:]) {
            self.links = links
            unknownKeys = [:]
        }

        /// The link under one of Apple's keys.
        public subscript(key: String) -> String? {
            get { links[key] }
            set { links[key] = newValue }
        }

        /// Decodes the links, keeping unknown keys.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            var links: [String: String] = [:]
            for key in c.allKeys where Self.documentedKeys.contains(key.stringValue) {
                links[key.stringValue] = try c.decode(String.self, forKey: key)
            }
            self.links = links
            unknownKeys = try c.unknownKeys(excluding: Self.documentedKeys)
        }

        /// Encodes the links, unknown keys included.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in links {
                try c.encode(value, forKey: AnyCodingKey(key))
            }
            try c.encode(unknownKeys: unknownKeys, excluding: Self.documentedKeys.union(links.keys))
        }
    }
}
