/// A Bluetooth Low Energy beacon near which the pass is relevant (Apple's `Beacons` dictionary).
public struct PassBeacon: Codable, Sendable, Equatable {
    /// The beacon's UUID; required.
    public var proximityUUID: String?
    /// The major identifier (0-65535).
    public var major: Int?
    /// The minor identifier (0-65535).
    public var minor: Int?
    /// Text shown on the lock screen when the pass is relevant.
    public var relevantText: String?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates a beacon.
    /// - Parameters:
    ///   - proximityUUID: The beacon's UUID.
    ///   - major: The major identifier.
    ///   - minor: The minor identifier.
    ///   - relevantText: Lock-screen text.
    public init(proximityUUID: String?, major: Int? = nil, minor: Int? = nil, relevantText: String? = nil) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.relevantText = relevantText
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = ["proximityUUID", "major", "minor", "relevantText"]

    /// Decodes a beacon dictionary, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        proximityUUID = try c.decode("proximityUUID")
        major = try c.decode("major")
        minor = try c.decode("minor")
        relevantText = try c.decode("relevantText")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the beacon dictionary, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(proximityUUID, "proximityUUID")
        try c.encode(major, "major")
        try c.encode(minor, "minor")
        try c.encode(relevantText, "relevantText")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
