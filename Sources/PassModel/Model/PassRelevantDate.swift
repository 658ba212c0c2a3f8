/// A date or interval when the pass is relevant (an entry of `relevantDates`, iOS 18 and later).
///
/// Give either `date`, or both `startDate` and `endDate`. Dates are W3C strings kept as written.
public struct PassRelevantDate: Codable, Sendable, Equatable {
    /// A single relevant moment.
    public var date: String?
    /// The start of a relevant interval.
    public var startDate: String?
    /// The end of a relevant interval; after `startDate`.
    public var endDate: String?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates a relevant date or interval.
    /// - Parameters:
    ///   - date: A single moment.
    ///   - startDate: The start of an interval.
    ///   - endDate: The end of an interval.
    public init(date: String? = nil, startDate: String? = nil, endDate: String? = nil) {
        self.date = date
        self.startDate = startDate
        self.endDate = endDate
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = ["date", "startDate", "endDate"]

    /// Decodes an entry, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        date = try c.decode("date")
        startDate = try c.decode("startDate")
        endDate = try c.decode("endDate")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the entry, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(date, "date")
        try c.encode(startDate, "startDate")
        try c.encode(endDate, "endDate")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
