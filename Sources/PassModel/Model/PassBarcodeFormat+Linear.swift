extension PassBarcodeFormat {
    /// Code 39 (iOS 27 and later): digits, capital letters, space and `- . $ / + %`.
    public static let code39 = Self(rawValue: "PKBarcodeFormatCode39")
    /// Codabar (iOS 27 and later): digits and `- $ : / . +`, between start and stop characters A to D.
    public static let codabar = Self(rawValue: "PKBarcodeFormatCodabar")
    /// EAN-13 (iOS 27 and later): 12 digits and a check digit.
    public static let ean13 = Self(rawValue: "PKBarcodeFormatEAN13")
    /// Interleaved 2 of 5, also called ITF (iOS 27 and later): an even number of digits.
    public static let i2of5 = Self(rawValue: "PKBarcodeFormatI2of5")

    /// The formats iOS 27 added. Earlier versions show no barcode for them, so a pass should follow one
    /// with a format they know (QR, PDF417, Aztec or Code 128) in `barcodes`.
    public static let iOS27Formats: [Self] = [.code39, .codabar, .ean13, .i2of5]

    /// Whether Wallet shows this format only from iOS 27.
    public var needsIOS27: Bool { Self.iOS27Formats.contains(self) }

    private static let code39Characters = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%")
    private static let codabarCharacters = Set("0123456789-$:/.+")
    private static let codabarStartStop = Set("ABCD")

    /// Why `message` cannot be carried by this one-dimensional format, or `nil` when it can (and for the
    /// two-dimensional formats and Code 128, whose limits depend on the encoding).
    ///
    /// A Codabar message may include its start and stop characters (`A1234B`); without them, `A` is used.
    /// - Parameter message: The barcode's message.
    /// - Returns: A plain reason naming the character or length at fault.
    public func problem(withMessage message: String) -> String? {
        let characters = Array(message)
        func outside(_ allowed: Set<Character>, _ name: String) -> String? {
            // ASCII first: characters compare by canonical equivalence, so the Kelvin sign (U+212A) equals "K".
            guard let index = characters.firstIndex(where: { !($0.isASCII && allowed.contains($0)) }) else { return nil }
            return "character \"\(characters[index])\" at position \(index + 1) cannot be carried by \(name)"
        }
        switch self {
        case .code39:
            return outside(Self.code39Characters, "Code 39 (digits, capital letters, space and - . $ / + %)")
        case .codabar:
            var body = characters[...]
            if let first = body.first, let last = body.last, body.count >= 2, Self.codabarStartStop.contains(first),
                Self.codabarStartStop.contains(last)
            {
                body = body.dropFirst().dropLast()
            }
            if let index = body.firstIndex(where: { !($0.isASCII && Self.codabarCharacters.contains($0)) }) {
                return "character \"\(characters[index])\" at position \(index + 1) cannot be carried by Codabar "
                    + "(digits and - $ : / . +, with A, B, C or D only as the first and last characters)"
            }
            return body.isEmpty ? "Codabar needs at least one character between its start and stop characters" : nil
        case .ean13:
            if let problem = outside(Set("0123456789"), "EAN-13 (digits only)") { return problem }
            guard characters.count == 12 || characters.count == 13 else {
                return "EAN-13 carries 12 digits, or 13 with the check digit; found \(characters.count)"
            }
            let check = Self.ean13CheckDigit(characters.prefix(12).map { Int(String($0))! })
            if characters.count == 13, Int(String(characters[12])) != check {
                return "the EAN-13 check digit of \(String(characters.prefix(12))) is \(check), not \(characters[12])"
            }
            return nil
        case .i2of5:
            if let problem = outside(Set("0123456789"), "Interleaved 2 of 5 (digits only)") { return problem }
            if characters.count % 2 == 1 {
                return "Interleaved 2 of 5 encodes digits in pairs: it needs an even number of digits, found \(characters.count)"
            }
            return nil
        default:
            return nil
        }
    }

    /// The EAN-13 check digit of 12 digits: weights 1 and 3 alternately from the left.
    /// - Parameter digits: The first 12 digits.
    /// - Returns: The digit that makes the weighted sum a multiple of 10.
    public static func ean13CheckDigit(_ digits: [Int]) -> Int {
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }
}
