public import PassModel

/// One barcode as a pass describes it (Apple's `barcodes` dictionary): symbology, message, the character set that
/// turns the message into bytes, and the text shown under it.
public struct Barcode: Sendable, Hashable {
    /// The symbologies Wallet shows: four on every iOS version, four more from iOS 27.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// QR code (`PKBarcodeFormatQR`), drawn by libqrencode.
        case qr = "PKBarcodeFormatQR"
        /// PDF417 (`PKBarcodeFormatPDF417`), drawn by zint.
        case pdf417 = "PKBarcodeFormatPDF417"
        /// Aztec (`PKBarcodeFormatAztec`), drawn by zint.
        case aztec = "PKBarcodeFormatAztec"
        /// Code 128 (`PKBarcodeFormatCode128`), a one-dimensional barcode drawn by zint.
        case code128 = "PKBarcodeFormatCode128"
        /// Code 39 (`PKBarcodeFormatCode39`, iOS 27), a one-dimensional barcode drawn by zint.
        case code39 = "PKBarcodeFormatCode39"
        /// Codabar (`PKBarcodeFormatCodabar`, iOS 27), a one-dimensional barcode drawn by zint.
        case codabar = "PKBarcodeFormatCodabar"
        /// EAN-13 (`PKBarcodeFormatEAN13`, iOS 27), a one-dimensional barcode drawn by zint.
        case ean13 = "PKBarcodeFormatEAN13"
        /// Interleaved 2 of 5 or ITF (`PKBarcodeFormatI2of5`, iOS 27), a one-dimensional barcode drawn by zint.
        case i2of5 = "PKBarcodeFormatI2of5"

        /// Reads a PassKit constant (`PKBarcodeFormatQR`) or a short name (`qr`, `pdf417`, `aztec`, `code128`,
        /// `code39`, `codabar`, `ean13`, `i2of5` or `itf`), ignoring case.
        /// - Parameter name: The constant or short name.
        public init?(name: String) {
            let lowered = name.lowercased()
            if lowered == "itf" {
                self = .i2of5
                return
            }
            guard let format = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered || $0.shortName == lowered })
            else { return nil }
            self = format
        }

        /// The short name used on the command line: `qr`, `pdf417`, `aztec`, `code128`, `code39`, `codabar`,
        /// `ean13` or `i2of5`.
        public var shortName: String {
            switch self {
            case .qr: "qr"
            case .pdf417: "pdf417"
            case .aztec: "aztec"
            case .code128: "code128"
            case .code39: "code39"
            case .codabar: "codabar"
            case .ean13: "ean13"
            case .i2of5: "i2of5"
            }
        }

        /// Whether the symbol is one row of bars (Code 128 and the four iOS 27 formats).
        public var isLinear: Bool {
            switch self {
            case .qr, .pdf417, .aztec: false
            case .code128, .code39, .codabar, .ean13, .i2of5: true
            }
        }

        /// Whether Wallet shows the format only from iOS 27 (Code 39, Codabar, EAN-13, Interleaved 2 of 5).
        public var needsIOS27: Bool { PassBarcodeFormat(rawValue: rawValue).needsIOS27 }

        /// The blank margin, in modules, drawn around the symbol on every side: QR 4 (ISO/IEC 18004), PDF417 2,
        /// Aztec 1 (it needs none; one keeps the finder clear of whatever is next to it), EAN-13 11 (its left
        /// quiet zone, the wider one), the other one-dimensional formats 10.
        public var quietZone: Int {
            switch self {
            case .qr: 4
            case .pdf417: 2
            case .aztec: 1
            case .ean13: 11
            case .code128, .code39, .codabar, .i2of5: 10
            }
        }

        /// A module scale that gives a legible image at 1x: QR and Aztec 8 pixels, PDF417 and the
        /// one-dimensional formats 3.
        public var defaultScale: Int {
            switch self {
            case .qr, .aztec: 8
            case .pdf417, .code128, .code39, .codabar, .ean13, .i2of5: 3
            }
        }
    }

    /// The symbology.
    public var format: Format
    /// The text to carry.
    public var message: String
    /// The IANA character set that turns `message` into the bytes the symbol carries (`iso-8859-1`, `utf-8`).
    public var messageEncoding: String
    /// Text shown under the barcode, if any.
    public var altText: String?

    /// Creates a barcode.
    /// - Parameters:
    ///   - format: The symbology.
    ///   - message: The text to carry.
    ///   - messageEncoding: Its character set (default `iso-8859-1`, as in most passes).
    ///   - altText: Text shown under the barcode.
    public init(format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
    }

    /// Reads a pass's barcode dictionary; a missing `messageEncoding` means `iso-8859-1`.
    /// - Parameter barcode: The dictionary from `pass.json`.
    /// - Throws: `BarcodeError` naming `format` or `message` when either is missing or unknown.
    public init(_ barcode: PassBarcode) throws {
        guard let raw = barcode.format?.rawValue else { throw BarcodeError(.unknownFormat, "format: missing") }
        guard let format = Format(name: raw) else {
            throw BarcodeError(.unknownFormat, "format: \"\(raw)\" is not one of "
                + Format.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let message = barcode.message else { throw BarcodeError(.emptyMessage, "message: missing") }
        self.init(format: format, message: message, messageEncoding: barcode.messageEncoding ?? "iso-8859-1",
                  altText: barcode.altText)
    }
}
