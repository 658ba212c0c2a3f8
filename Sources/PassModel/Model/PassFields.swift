/// The field groups of a pass style (Apple's `PassFields`), plus `transitType` for boarding passes.
public struct PassFields: Codable, Sendable, Equatable {
    /// Fields at the top of the pass, visible when passes are stacked.
    public var headerFields: [PassField]?
    /// The most important fields.
    public var primaryFields: [PassField]?
    /// Supporting fields on the front.
    public var secondaryFields: [PassField]?
    /// Additional fields on the front.
    public var auxiliaryFields: [PassField]?
    /// Fields on the back of the pass.
    public var backFields: [PassField]?
    /// Fields in the Additional Info section below the pass (iOS 18 and later).
    public var additionalInfoFields: [PassField]?
    /// Fields in the footer of a poster generic pass (iOS 27 and later).
    public var footerFields: [PassField]?
    /// The kind of transport; required for boarding passes, not used by other styles.
    public var transitType: PassTransitType?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates field groups.
    /// - Parameters:
    ///   - headerFields: Header fields.
    ///   - primaryFields: Primary fields.
    ///   - secondaryFields: Secondary fields.
    ///   - auxiliaryFields: Auxiliary fields.
    ///   - backFields: Back fields.
    ///   - transitType: The transit type (boarding passes only).
    public init(
        headerFields: [PassField]? = nil,
        primaryFields: [PassField]? = nil,
        secondaryFields: [PassField]? = nil,
        auxiliaryFields: [PassField]? = nil,
        backFields: [PassField]? = nil,
        transitType: PassTransitType? = nil
    ) {
        self.headerFields = headerFields
        self.primaryFields = primaryFields
        self.secondaryFields = secondaryFields
        self.auxiliaryFields = auxiliaryFields
        self.backFields = backFields
        self.transitType = transitType
        unknownKeys = [:]
    }

    /// The names of the field groups, in display order.
    public static let groupNames = [
        "headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields", "additionalInfoFields",
        "footerFields",
    ]

    static let knownKeys: Set<String> = Set(groupNames + ["transitType"])

    /// The groups that are present, with their key names, in display order.
    public var groups: [(name: String, fields: [PassField])] {
        let all: [(String, [PassField]?)] = [
            ("headerFields", headerFields), ("primaryFields", primaryFields), ("secondaryFields", secondaryFields),
            ("auxiliaryFields", auxiliaryFields), ("backFields", backFields),
            ("additionalInfoFields", additionalInfoFields), ("footerFields", footerFields),
        ]
        return all.compactMap { name, fields in fields.map { (name, $0) } }
    }

    /// Every field of every group, in display order.
    public var allFields: [PassField] { groups.flatMap(\.fields) }

    /// Decodes the field groups, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        headerFields = try c.decode("headerFields")
        primaryFields = try c.decode("primaryFields")
        secondaryFields = try c.decode("secondaryFields")
        auxiliaryFields = try c.decode("auxiliaryFields")
        backFields = try c.decode("backFields")
        additionalInfoFields = try c.decode("additionalInfoFields")
        footerFields = try c.decode("footerFields")
        transitType = try c.decode("transitType")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the field groups, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(headerFields, "headerFields")
        try c.encode(primaryFields, "primaryFields")
        try c.encode(secondaryFields, "secondaryFields")
        try c.encode(auxiliaryFields, "auxiliaryFields")
        try c.encode(backFields, "backFields")
        try c.encode(additionalInfoFields, "additionalInfoFields")
        try c.encode(footerFields, "footerFields")
        try c.encode(transitType, "transitType")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
