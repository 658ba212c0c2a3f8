/// One field of a pass (Apple's `PassFieldContent` dictionary): a key, a label and a value, plus
/// how Wallet formats the value.
public struct PassField: Codable, Sendable, Equatable {
    /// A key unique across all fields of the pass; required.
    public var key: String?
    /// The (localisable) label shown above the value.
    public var label: String?
    /// The value: a localisable string, a W3C date string or a number; required.
    public var value: PassFieldValue?
    /// A value with HTML links (`<a href>`), shown instead of `value` on back fields.
    public var attributedValue: PassFieldValue?
    /// The notification text when the value changes; must contain `%@` for the new value.
    public var changeMessage: String?
    /// How to show the date part of a date value.
    public var dateStyle: PassDateStyle?
    /// How to show the time part of a date value.
    public var timeStyle: PassDateStyle?
    /// Shows a date relative to now ("in 2 hours").
    public var isRelative: Bool?
    /// Shows the time in the value's own time zone, not the device's.
    public var ignoresTimeZone: Bool?
    /// How to show a numeric value.
    public var numberStyle: PassNumberStyle?
    /// An ISO 4217 currency code; shows a numeric value as an amount of that currency.
    public var currencyCode: String?
    /// The alignment of label and value.
    public var textAlignment: PassTextAlignment?
    /// Data to detect and link in back-field values; `[]` turns detection off.
    public var dataDetectorTypes: [PassDataDetectorType]?
    /// For event-ticket auxiliary fields: the row (0 or 1) the field appears in.
    public var row: Int?
    /// Machine-readable metadata about the field (Apple's SemanticTags), kept as JSON.
    public var semantics: JSONValue?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates a field.
    /// - Parameters:
    ///   - key: The key, unique in the pass.
    ///   - label: The label.
    ///   - value: The value.
    public init(key: String?, label: String? = nil, value: PassFieldValue?) {
        self.key = key
        self.label = label
        self.value = value
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = [
        "key", "label", "value", "attributedValue", "changeMessage", "dateStyle", "timeStyle", "isRelative",
        "ignoresTimeZone", "numberStyle", "currencyCode", "textAlignment", "dataDetectorTypes", "row", "semantics",
    ]

    /// Decodes a field dictionary, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        key = try c.decode("key")
        label = try c.decode("label")
        value = try c.decode("value")
        attributedValue = try c.decode("attributedValue")
        changeMessage = try c.decode("changeMessage")
        dateStyle = try c.decode("dateStyle")
        timeStyle = try c.decode("timeStyle")
        isRelative = try c.decode("isRelative")
        ignoresTimeZone = try c.decode("ignoresTimeZone")
        numberStyle = try c.decode("numberStyle")
        currencyCode = try c.decode("currencyCode")
        textAlignment = try c.decode("textAlignment")
        dataDetectorTypes = try c.decode("dataDetectorTypes")
        row = try c.decode("row")
        semantics = try c.decode("semantics")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the field dictionary, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(key, "key")
        try c.encode(label, "label")
        try c.encode(value, "value")
        try c.encode(attributedValue, "attributedValue")
        try c.encode(changeMessage, "changeMessage")
        try c.encode(dateStyle, "dateStyle")
        try c.encode(timeStyle, "timeStyle")
        try c.encode(isRelative, "isRelative")
        try c.encode(ignoresTimeZone, "ignoresTimeZone")
        try c.encode(numberStyle, "numberStyle")
        try c.encode(currencyCode, "currencyCode")
        try c.encode(textAlignment, "textAlignment")
        try c.encode(dataDetectorTypes, "dataDetectorTypes")
        try c.encode(row, "row")
        try c.encode(semantics, "semantics")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
