/// What a data document asks of a template's barcodes: a new message, new text under them, or both.
///
/// The rule that keeps the text under a barcode true: when only the message changes, an `altText` equal to the
/// template's message follows the new message, and any other `altText` (written for the template's own message,
/// such as a formatted placeholder) is removed. `barcodeAltText` sets the text explicitly; `null` or `""` removes it.
struct BarcodeText: Sendable, Equatable {
    /// The new message, when the document sets `barcodeMessage`.
    var message: String?
    /// `.some(nil)` removes the text, `.some(text)` sets it, `nil` leaves it to the rule above.
    var altText: String??

    /// Reads `barcodeMessage` and `barcodeAltText` from a document's overrides.
    /// - Returns: `nil` when the document sets neither.
    /// - Throws: ``PassModelError`` `invalidData` naming the key whose value is not a string (or `null` for the text).
    init?(overrides: [String: JSONValue]) throws {
        let message = overrides[PassData.barcodeMessageKey]
        let altText = overrides[PassData.barcodeAltTextKey]
        guard message != nil || altText != nil else { return nil }
        switch message {
        case nil: self.message = nil
        case .string(let text)?: self.message = text
        case let other?: throw PassTemplate.barcodeMessageTypeError(other)
        }
        switch altText {
        case nil: self.altText = nil
        case .null?, .string("")?: self.altText = .some(nil)
        case .string(let text)?: self.altText = .some(text)
        case let other?:
            throw PassModelError(
                .invalidData,
                "data override \"\(PassData.barcodeAltTextKey)\": expected a string or null, found \(other.kindName)"
            )
        }
    }

    /// The message and text one barcode gets.
    /// - Parameters:
    ///   - message: The barcode's message in the template.
    ///   - altText: The barcode's text in the template.
    /// - Returns: The new message and text.
    func applied(message oldMessage: String?, altText oldAltText: String?) -> (message: String?, altText: String?) {
        let newMessage = message ?? oldMessage
        if let altText { return (newMessage, altText) }
        guard let message, message != oldMessage, let oldAltText else { return (newMessage, oldAltText) }
        return (newMessage, oldAltText == oldMessage ? message : nil)
    }
}
