/// Text read from a file being inspected (a pass's or an order's values, its entries' names), made safe to print on a
/// terminal: control characters (C0 but the tab, DEL, C1), line and paragraph separators and the bidirectional
/// controls are written as `\u{XX}`, so a hostile file can neither send escape sequences (a new window title, a
/// cleared screen) nor reorder what the holder of the terminal reads. Everything else is printed as it is.
enum TerminalText {
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
