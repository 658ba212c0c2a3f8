/// A barcode shown on the pass (Apple's `Barcodes` dictionary; also the legacy `barcode` key).
public struct PassBarcode: Codable, Sendable, Equatable {
    /// The symbology; required.
    public var format: PassBarcodeFormat?
    /// The message or payload encoded in the barcode; required.
    public var message: String?
    /// The IANA character-set name used to turn `message` into bytes, usually `iso-8859-1`; required.
    public var messageEncoding: String?
    /// Text shown near the barcode, such as a human-readable version of the message.
    public var altText: String?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates a barcode.
    /// - Parameters:
    ///   - format: The symbology.
    ///   - message: The payload.
    ///   - messageEncoding: The IANA character set of the payload (default `iso-8859-1`).
    ///   - altText: Text shown near the barcode.
    public init(
        format: PassBarcodeFormat?,
        message: String?,
        messageEncoding: String? = "iso-8859-1",
        altText: String? = nil
    ) {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = ["format", "message", "messageEncoding", "altText"]

    /// Decodes a barcode dictionary, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        format = try c.decode("format")
        message = try c.decode("message")
        messageEncoding = try c.decode("messageEncoding")
        altText = try c.decode("altText")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the barcode dictionary, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(format, "format")
        try c.encode(message, "message")
        try c.encode(messageEncoding, "messageEncoding")
        try c.encode(altText, "altText")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
