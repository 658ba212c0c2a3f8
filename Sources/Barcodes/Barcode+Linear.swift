import PassModel

extension Barcode {
    /// The characters zint draws for Code 39, Codabar, EAN-13 and Interleaved 2 of 5, after checking the
    /// message against its format's rules (the ones `PassValidator` reports, from `PassBarcodeFormat`).
    ///
    /// These formats carry ASCII characters only, so `messageEncoding` does not change the bytes. A Codabar
    /// message without its start and stop characters gets `A` at both ends; an EAN-13 message of 13 digits
    /// is drawn from its first 12, zint adding the check digit it was checked against.
    /// - Returns: The characters as ASCII bytes.
    /// - Throws: `BarcodeError` `emptyMessage`, `unencodableCharacter` naming the character and its position,
    ///   or `invalidMessage` for a wrong length or check digit.
    func linearSymbolData() throws -> [UInt8] {
        guard !message.isEmpty else { throw BarcodeError(.emptyMessage, "message: is empty") }
        if let problem = PassBarcodeFormat(rawValue: format.rawValue).problem(withMessage: message) {
            throw BarcodeError(problem.hasPrefix("character ") ? .unencodableCharacter : .invalidMessage,
                               "message: \(problem)")
        }
        switch format {
        case .codabar:
            let startStop: Set<Character> = ["A", "B", "C", "D"]
            if message.count >= 2, let first = message.first, let last = message.last, startStop.contains(first),
               startStop.contains(last) {
                return Array(message.utf8)
            }
            return Array("A\(message)A".utf8)
        case .ean13:
            return Array(message.utf8.prefix(12))
        default:
            return Array(message.utf8)
        }
    }
}
