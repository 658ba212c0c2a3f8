public import Foundation

/// Where JSON text stops being JSON, for messages a person can act on: `JSONDecoder` says only "not valid JSON",
/// `JSONSerialization` names a byte offset ("around character 8"), which is turned into a line and column.
public enum JSONSyntax {
    /// The syntax fault of `data`, as `line 4, column 1: Invalid value.`; `nil` when `data` is JSON (a bare value
    /// such as `3` included).
    public static func fault(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return locate((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, in: data)
        }
    }

    private static func locate(_ message: String?, in data: Data) -> String {
        guard let message, !message.isEmpty else { return "the data is not valid JSON" }
        var text = message
        var offset: Int?
        for phrase in [" around character ", " starting from character "] {
            guard let range = text.range(of: phrase, options: .backwards) else { continue }
            let digits = text[range.upperBound...].prefix(while: \.isNumber)
            offset = Int(digits)
            text.removeSubrange(range.lowerBound..<text.index(range.upperBound, offsetBy: digits.count))
            break
        }
        if offset == nil, message.hasPrefix("Unexpected end of file") { offset = data.count }
        guard let offset else { return message }
        let (line, column) = position(of: offset, in: data)
        return "line \(line), column \(column): \(text)"
    }

    /// The 1-based line and column (counting characters, not bytes) of a byte offset.
    private static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
