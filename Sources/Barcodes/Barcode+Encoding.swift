import Foundation

extension Barcode {
    /// The character sets `messageEncoding` may name.
    public enum MessageEncoding: String, Sendable, CaseIterable {
        /// ISO/IEC 8859-1 (Latin-1): one byte per character, U+0000 to U+00FF. Wallet's usual encoding.
        case isoLatin1 = "iso-8859-1"
        /// UTF-8: any character, one to four bytes each.
        case utf8 = "utf-8"
        /// US-ASCII: U+0000 to U+007F only.
        case ascii = "us-ascii"

        /// Reads an IANA name or a common alias (`ISO-8859-1`, `latin1`, `utf8`, `ascii`), ignoring case.
        /// - Parameter name: The name as written in `pass.json`.
        public init?(name: String) {
            switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
            case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819", "ibm819": self = .isoLatin1
            case "utf-8", "utf8": self = .utf8
            case "us-ascii", "ascii", "us", "iso646-us", "ansi-x3.4-1968": self = .ascii
            default: return nil
            }
        }

        /// The highest Unicode scalar value one character may have, if the set is limited.
        var highestScalar: UInt32? {
            switch self {
            case .isoLatin1: 0xFF
            case .ascii: 0x7F
            case .utf8: nil
            }
        }
    }

    /// The bytes the symbol carries: `message` written in `messageEncoding`.
    ///
    /// ISO-8859-1 and US-ASCII messages are first put in Unicode canonical composed form (NFC), so an "ë" typed as
    /// "e" plus a combining diaeresis still fits; UTF-8 messages are written exactly as given.
    /// - Returns: The encoded message, never empty.
    /// - Throws: `BarcodeError` for an empty message, an unknown encoding, or a character the encoding cannot write
    ///   (naming the character and its 1-based position).
    public func encodedMessage() throws -> [UInt8] {
        guard !message.isEmpty else { throw BarcodeError(.emptyMessage, "message: is empty") }
        guard let encoding = MessageEncoding(name: messageEncoding) else {
            throw BarcodeError(.unknownEncoding, "messageEncoding: \"\(messageEncoding)\" is not supported "
                + "(use iso-8859-1, utf-8 or us-ascii)")
        }
        guard let highest = encoding.highestScalar else { return Array(message.utf8) }
        // Fast path: text already within the set is already in NFC (no scalar up to U+00FF decomposes or combines).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(message.utf8.count)
        for scalar in message.unicodeScalars {
            guard scalar.value <= highest else { break }
            bytes.append(UInt8(scalar.value))
        }
        if bytes.count == message.unicodeScalars.count { return bytes }
        bytes.removeAll(keepingCapacity: true)
        let composed = message.precomposedStringWithCanonicalMapping
        for (offset, character) in composed.enumerated() {
            for scalar in character.unicodeScalars {
                guard scalar.value <= highest else {
                    throw BarcodeError.unencodable(character, at: offset + 1, "cannot be encoded in \(encoding.rawValue)")
                }
                bytes.append(UInt8(scalar.value))
            }
        }
        return bytes
    }

    /// Checks that Code 128 can carry every character: it has no way to mark a character set, so scanners read its
    /// bytes as ISO-8859-1. A character beyond U+00FF cannot be shown truthfully, and in UTF-8 nothing beyond ASCII
    /// can (an "é" is two bytes, read back as "Ã©": a gate's scanner would not find the pass).
    func checkCode128Characters() throws {
        let utf8 = MessageEncoding(name: messageEncoding) == .utf8
        let highest: UInt32 = utf8 ? 0x7F : 0xFF
        guard message.unicodeScalars.contains(where: { $0.value > highest }) else { return }
        for (offset, character) in message.precomposedStringWithCanonicalMapping.enumerated()
        where character.unicodeScalars.contains(where: { $0.value > highest }) {
            throw BarcodeError.unencodable(character, at: offset + 1, utf8
                ? "cannot be carried by Code 128 in utf-8 (scanners read it as ISO-8859-1: use messageEncoding iso-8859-1)"
                : "cannot be carried by Code 128 (ISO-8859-1 characters only)")
        }
    }
}
