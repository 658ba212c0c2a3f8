/// One upcoming event of a multi-event ticket (`upcomingPassInformation`, iOS 26 and later): Wallet lists the
/// entries on the pass and opens each one's details, event guide and images.
///
/// Every member is optional so that an incomplete entry still decodes and ``PassValidator`` can say what is
/// missing (`identifier`, `name` and `type` are required).
public struct UpcomingPassInformationEntry: Codable, Sendable, Equatable {
    /// A string unique among the pass's entries; required.
    public var identifier: String?
    /// The event's name; required, localisable.
    public var name: String?
    /// The kind of entry; required. `event` is the only type Apple documents.
    public var type: String?
    /// Whether the entry is the current one; `false` when absent.
    public var isActive: Bool?
    /// When the event takes place; without it Wallet shows the date and time as to be decided.
    public var dateInformation: DateInformation?
    /// Remote images for the details view (`headerImage`, `venueMap`).
    public var images: Images?
    /// Event-guide links for this entry (Apple's `URLs` key).
    public var urls: URLs?
    /// Fields shown in the Additional Info section below the pass.
    public var additionalInfoFields: [PassField]?
    /// Fields shown in the entry's details view.
    public var backFields: [PassField]?
    /// App Store identifiers of apps the event guide suggests for this entry.
    public var auxiliaryStoreIdentifiers: [Int]?
    /// Semantic tags of this entry (venue, performers, seats ...), checked like the pass's own `semantics`.
    public var semantics: JSONValue?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// The type Apple documents for upcoming events.
    public static let eventType = "event"

    /// Creates an entry.
    /// - Parameters:
    ///   - identifier: A string unique among the pass's entries.
    ///   - name: The event's name.
    ///   - type: The kind of entry, `event` unless Apple documents another.
    public init(identifier: String?, name: String?, type: String? = Self.eventType) {
        self.identifier = identifier
        self.name = name
        self.type = type
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = [
        "identifier", "name", "type", "isActive", "dateInformation", "images", "URLs", "additionalInfoFields",
        "backFields", "auxiliaryStoreIdentifiers", "semantics",
    ]

    /// Decodes an entry, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        identifier = try c.decode("identifier")
        name = try c.decode("name")
        type = try c.decode("type")
        isActive = try c.decode("isActive")
        dateInformation = try c.decode("dateInformation")
        images = try c.decode("images")
        urls = try c.decode("URLs")
        additionalInfoFields = try c.decode("additionalInfoFields")
        backFields = try c.decode("backFields")
        auxiliaryStoreIdentifiers = try c.decode("auxiliaryStoreIdentifiers")
        semantics = try c.decode("semantics")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the entry, unknown keys included; semantic tags in Apple's spelling.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(identifier, "identifier")
        try c.encode(name, "name")
        try c.encode(type, "type")
        try c.encode(isActive, "isActive")
        try c.encode(dateInformation, "dateInformation")
        try c.encode(images, "images")
        try c.encode(urls, "URLs")
        try c.encode(additionalInfoFields, "additionalInfoFields")
        try c.encode(backFields, "backFields")
        try c.encode(auxiliaryStoreIdentifiers, "auxiliaryStoreIdentifiers")
        try c.encode(semantics.map(PassSemanticTags.withApplesSpelling), "semantics")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}

extension UpcomingPassInformationEntry {
    /// When an upcoming event takes place (Apple's `dateInformation`).
    public struct DateInformation: Codable, Sendable, Equatable {
        /// The start as a W3C date; without it Wallet shows the date and time as to be decided.
        public var date: String?
        /// The IANA time zone to show the date in; the device's when absent.
        public var timeZone: String?
        /// Whether Wallet shows the date without its time.
        public var ignoreTimeComponents: Bool?
        /// Whether the event lasts all day (the time is not shown).
        public var isAllDay: Bool?
        /// Whether the time is not announced yet (shown as TBA).
        public var isUnannounced: Bool?
        /// Whether the time is not decided yet (shown as TBD).
        public var isUndetermined: Bool?
        /// Keys this model does not know, written back as they were read.
        public var unknownKeys: [String: JSONValue]

        /// Creates date information.
        /// - Parameters:
        ///   - date: The start as a W3C date.
        ///   - timeZone: The IANA time zone to show it in.
        public init(date: String?, timeZone: String? = nil) {
            self.date = date
            self.timeZone = timeZone
            unknownKeys = [:]
        }

        static let knownKeys: Set<String> = [
            "date", "timeZone", "ignoreTimeComponents", "isAllDay", "isUnannounced", "isUndetermined",
        ]

        /// Decodes date information, keeping unknown keys.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            date = try c.decode("date")
            timeZone = try c.decode("timeZone")
            ignoreTimeComponents = try c.decode("ignoreTimeComponents")
            isAllDay = try c.decode("isAllDay")
            isUnannounced = try c.decode("isUnannounced")
            isUndetermined = try c.decode("isUndetermined")
            unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
        }

        /// Encodes date information, unknown keys included.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode(date, "date")
            try c.encode(timeZone, "timeZone")
            try c.encode(ignoreTimeComponents, "ignoreTimeComponents")
            try c.encode(isAllDay, "isAllDay")
            try c.encode(isUnannounced, "isUnannounced")
            try c.encode(isUndetermined, "isUndetermined")
            try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
        }
    }
}
