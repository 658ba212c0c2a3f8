/// A place near which the pass is relevant (Apple's `Locations` dictionary).
public struct PassLocation: Codable, Sendable, Equatable {
    /// Latitude in degrees (-90...90); required.
    public var latitude: Double?
    /// Longitude in degrees (-180...180); required.
    public var longitude: Double?
    /// Altitude in metres.
    public var altitude: Double?
    /// Text shown on the lock screen when the pass is relevant.
    public var relevantText: String?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates a location.
    /// - Parameters:
    ///   - latitude: Latitude in degrees.
    ///   - longitude: Longitude in degrees.
    ///   - altitude: Altitude in metres.
    ///   - relevantText: Lock-screen text.
    public init(latitude: Double?, longitude: Double?, altitude: Double? = nil, relevantText: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.relevantText = relevantText
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = ["latitude", "longitude", "altitude", "relevantText"]

    /// Decodes a location dictionary, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        latitude = try c.decode("latitude")
        longitude = try c.decode("longitude")
        altitude = try c.decode("altitude")
        relevantText = try c.decode("relevantText")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the location dictionary, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(latitude, "latitude")
        try c.encode(longitude, "longitude")
        try c.encode(altitude, "altitude")
        try c.encode(relevantText, "relevantText")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
