/// Near-field communication payload for Value Added Services (Apple's `NFC` dictionary).
///
/// Wallet only honours it for passes signed with an NFC-entitled pass type certificate.
public struct PassNFC: Codable, Sendable, Equatable {
    /// The payload sent to the terminal (up to 64 bytes); required.
    public var message: String?
    /// The terminal's public encryption key, Base64-encoded X.509 SubjectPublicKeyInfo; required.
    public var encryptionPublicKey: String?
    /// Whether the user must authenticate before each NFC use.
    public var requiresAuthentication: Bool?
    /// Keys this model does not know, written back as they were read.
    public var unknownKeys: [String: JSONValue]

    /// Creates an NFC payload.
    /// - Parameters:
    ///   - message: The payload.
    ///   - encryptionPublicKey: The terminal's public key, Base64.
    ///   - requiresAuthentication: Whether authentication is needed for each use.
    public init(message: String?, encryptionPublicKey: String?, requiresAuthentication: Bool? = nil) {
        self.message = message
        self.encryptionPublicKey = encryptionPublicKey
        self.requiresAuthentication = requiresAuthentication
        unknownKeys = [:]
    }

    static let knownKeys: Set<String> = ["message", "encryptionPublicKey", "requiresAuthentication"]

    /// Decodes the dictionary, keeping unknown keys.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        message = try c.decode("message")
        encryptionPublicKey = try c.decode("encryptionPublicKey")
        requiresAuthentication = try c.decode("requiresAuthentication")
        unknownKeys = try c.unknownKeys(excluding: Self.knownKeys)
    }

    /// Encodes the dictionary, unknown keys included.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(message, "message")
        try c.encode(encryptionPublicKey, "encryptionPublicKey")
        try c.encode(requiresAuthentication, "requiresAuthentication")
        try c.encode(unknownKeys: unknownKeys, excluding: Self.knownKeys)
    }
}
