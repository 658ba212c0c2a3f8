/// A barcode that cannot be made: an unknown format or encoding, a message the symbology or encoding cannot carry,
/// an option out of range, or a failure reported by zint, libqrencode or zlib (with that library's own words).
public struct BarcodeError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, for callers that branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unknownFormat, unknownEncoding, emptyMessage, unencodableCharacter, messageTooLong
            case invalidOption, encoderFailure, invalidMessage
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `format` is not one of the Wallet symbologies.
        public static let unknownFormat = Code(.unknownFormat)
        /// `messageEncoding` names a character set Tessera does not encode.
        public static let unknownEncoding = Code(.unknownEncoding)
        /// `message` is missing or empty.
        public static let emptyMessage = Code(.emptyMessage)
        /// A character of `message` cannot be written in the encoding or carried by the symbology.
        public static let unencodableCharacter = Code(.unencodableCharacter)
        /// `message` does not fit in the largest symbol.
        public static let messageTooLong = Code(.messageTooLong)
        /// A rendering option (scale, error-correction level, columns) is out of range.
        public static let invalidOption = Code(.invalidOption)
        /// `message` breaks a rule of its one-dimensional format: an EAN-13 check digit, an odd number of
        /// Interleaved 2 of 5 digits, a Codabar message without digits.
        public static let invalidMessage = Code(.invalidMessage)
        /// zint, libqrencode or zlib failed in a way the input does not explain.
        public static let encoderFailure = Code(.encoderFailure)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A plain explanation that starts with the field at fault, e.g.
    /// `message: character "€" at position 5 cannot be encoded in iso-8859-1`.
    public let reason: String
    /// The C library's own error text, when one failed (empty otherwise).
    public let libraryError: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: A plain explanation naming the field.
    ///   - libraryError: zint's, libqrencode's or zlib's own message, if any.
    public init(_ code: Code, _ reason: String, libraryError: String = "") {
        self.code = code
        self.reason = reason
        self.libraryError = libraryError
    }

    /// The reason, followed by the library's words in parentheses when there are any.
    public var description: String {
        libraryError.isEmpty ? reason : "\(reason) (\(libraryError))"
    }

    static func unencodable(_ character: Character, at position: Int, _ what: String) -> BarcodeError {
        let shown = character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control }
            ? character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
            : "\"\(character)\""
        return BarcodeError(.unencodableCharacter, "message: character \(shown) at position \(position) \(what)")
    }
}
