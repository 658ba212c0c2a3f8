/// Turns a `Barcode` into its module matrix: QR through libqrencode; PDF417, Aztec, Code 128, Code 39, Codabar,
/// EAN-13 and Interleaved 2 of 5 through zint.
/// The message's bytes (in its `messageEncoding`) are given to the encoder in binary mode, without an ECI
/// designator, as Wallet does, so a scanner reads back exactly those bytes.
public enum BarcodeRenderer {
    /// QR error-correction levels: the share of the symbol that can be damaged and still read.
    public enum QRErrorCorrection: String, Sendable, CaseIterable {
        /// About 7%.
        case low = "L"
        /// About 15%; Wallet's and Tessera's default.
        case medium = "M"
        /// About 25%.
        case quartile = "Q"
        /// About 30%.
        case high = "H"

        /// Reads `L`, `M`, `Q` or `H` (or `low`, `medium`, `quartile`, `high`), ignoring case.
        /// - Parameter name: The level's letter or name.
        public init?(name: String) {
            let lowered = name.lowercased()
            guard let level = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered || "\($0)" == lowered })
            else { return nil }
            self = level
        }
    }

    /// How symbols are sized. The defaults suit Wallet's barcode area.
    public struct Configuration: Sendable, Hashable {
        /// QR error correction (default M).
        public var qrErrorCorrection: QRErrorCorrection
        /// PDF417 security level 0-8, or `nil` to choose by message length (see `PDF417Layout`).
        public var pdf417SecurityLevel: Int?
        /// PDF417 data columns 1-30, or `nil` to choose the count whose symbol is closest to `pdf417AspectRatio`.
        public var pdf417Columns: Int?
        /// The width-to-height ratio PDF417 symbols aim for when `pdf417Columns` is `nil` (default 3: Wallet
        /// shows PDF417 in a wide, short box under the fields).
        public var pdf417AspectRatio: Double

        /// Creates a configuration.
        /// - Parameters:
        ///   - qrErrorCorrection: QR error correction (default M).
        ///   - pdf417SecurityLevel: PDF417 security level 0-8, or `nil` for automatic.
        ///   - pdf417Columns: PDF417 data columns 1-30, or `nil` for automatic.
        ///   - pdf417AspectRatio: Target width-to-height ratio for automatic columns.
        public init(qrErrorCorrection: QRErrorCorrection = .medium, pdf417SecurityLevel: Int? = nil,
                    pdf417Columns: Int? = nil, pdf417AspectRatio: Double = 3) {
            self.qrErrorCorrection = qrErrorCorrection
            self.pdf417SecurityLevel = pdf417SecurityLevel
            self.pdf417Columns = pdf417Columns
            self.pdf417AspectRatio = pdf417AspectRatio
        }
    }

    /// Encodes `barcode` and returns its modules.
    /// - Parameters:
    ///   - barcode: The barcode dictionary.
    ///   - configuration: Symbol sizing (default: Wallet-friendly).
    /// - Returns: The module matrix with the format's quiet zone.
    /// - Throws: `BarcodeError` naming the field at fault: an empty message, an unknown encoding, a character the
    ///   encoding (or Code 128) cannot carry, a message too long for the symbology, or an option out of range.
    public static func render(_ barcode: Barcode, configuration: Configuration = .init()) throws -> BarcodeMatrix {
        switch barcode.format {
        case .qr:
            return try QRencode.matrix(for: try barcode.encodedMessage(), level: configuration.qrErrorCorrection)
        case .pdf417:
            let bytes = try barcode.encodedMessage()
            let layout = try PDF417Layout(byteCount: bytes.count, configuration: configuration)
            // The level chosen for the length leaves no room for a long binary message (past 863 codewords, level 6's
            // 128 error-correction codewords do not fit beside it): a level chosen here, not fixed by the caller,
            // steps down until the message fits, rather than refusing a message a lower level carries.
            let levels = configuration.pdf417SecurityLevel == nil
                ? Array((2...layout.securityLevel).reversed()) : [layout.securityLevel]
            for (index, level) in levels.enumerated() {
                let symbol = try ZintSymbol(format: .pdf417, option1: Int32(level), option2: Int32(layout.columns))
                do {
                    try symbol.encode(bytes, format: .pdf417)
                    return symbol.matrix(format: .pdf417)
                } catch let error as BarcodeError where error.code == .messageTooLong && index < levels.count - 1 {
                    continue
                }
            }
            throw BarcodeError(.messageTooLong, "message: \(bytes.count) bytes do not fit in pdf417")
        case .aztec, .code128:
            if barcode.format == .code128 { try barcode.checkCode128Characters() }
            let bytes = try barcode.encodedMessage()
            let symbol = try ZintSymbol(format: barcode.format)
            try symbol.encode(bytes, format: barcode.format)
            return symbol.matrix(format: barcode.format)
        case .code39, .codabar, .ean13, .i2of5:
            let symbol = try ZintSymbol(format: barcode.format)
            try symbol.encode(try barcode.linearSymbolData(), format: barcode.format)
            return symbol.matrix(format: barcode.format)
        }
    }
}
