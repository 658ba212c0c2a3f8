/// Text made safe to place in HTML and XML documents: the payment-sheet previews (HTML) and the barcode and pass
/// preview SVGs (XML).
///
/// Both escape per Unicode scalar, so a quote or `<` followed by a combining mark is escaped like any other.
public enum MarkupText {
    /// Escapes `&`, `<`, `>`, `"` and `'` (as `&#39;`) for HTML text and attribute values; every other character is
    /// kept.
    /// - Parameter text: Any text.
    /// - Returns: The escaped text.
    public static func html(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where !appendEscape(of: scalar, apostrophe: "&#39;", to: &escaped) {
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` (as `&apos;`) for XML 1.0 text and attribute values, writes tabs and line
    /// breaks as spaces, drops the characters XML 1.0 cannot hold (the other C0 controls, U+FFFE, U+FFFF), and trims
    /// spaces from both ends.
    /// - Parameter text: Any text.
    /// - Returns: The escaped text.
    public static func xml(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars where !appendEscape(of: scalar, apostrophe: "&apos;", to: &escaped) {
            switch scalar {
            case "\t", "\n", "\r": escaped += " "
            default:
                if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        var trimmed = Substring(escaped)
        while trimmed.first == " " { trimmed.removeFirst() }
        while trimmed.last == " " { trimmed.removeLast() }
        return String(trimmed)
    }

    /// Appends the entity for one of the five characters markup reserves; `false` for any other scalar.
    private static func appendEscape(of scalar: Unicode.Scalar, apostrophe: String, to escaped: inout String) -> Bool {
        switch scalar {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += apostrophe
        default: return false
        }
        return true
    }
}
