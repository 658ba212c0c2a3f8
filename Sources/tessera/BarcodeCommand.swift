import ArgumentParser
import Barcodes
import Foundation

/// `tessera barcode`: one barcode as PNG or SVG, from the same fields as a pass's `barcodes` dictionary.
struct BarcodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barcode",
        abstract: "Render a barcode as a pass shows it (PDF417, QR, Aztec, Code 128, Code 39, Codabar, EAN-13, ITF) as PNG or SVG.",
        discussion: """
        The message is written in --encoding and those exact bytes are encoded (binary mode, no ECI), as Wallet does.
        The output format follows the --output extension: .png (1-bit greyscale) or .svg (vector rectangles).
        A message the encoding or symbology cannot carry exits 1 naming the character and its position.
        """
    )

    @Option(help: "pdf417, qr, aztec, code128, code39, codabar, ean13 or i2of5 (or PKBarcodeFormatPDF417, ...).")
    var format: String

    @Option(help: "The message to encode.")
    var message: String

    @Option(help: "Character set of the message: iso-8859-1 (default), utf-8 or us-ascii.")
    var encoding = "iso-8859-1"

    @Option(help: "Pixels per module, 1-100 (default: 8 for QR and Aztec, 3 for PDF417 and the linear formats).")
    var scale: Int?

    @Option(help: "QR error correction: L, M (default), Q or H.")
    var ecLevel: String?

    @Option(help: "PDF417 security level 0-8 (default: by message length).")
    var pdf417SecurityLevel: Int?

    @Option(help: "PDF417 data columns 1-30 (default: the count that makes a wide, 3:1 symbol).")
    var pdf417Columns: Int?

    @Option(help: "Text drawn under the barcode (SVG only), like a pass's altText.")
    var altText: String?

    @Option(help: "Output file: FILE.png or FILE.svg.")
    var output: String

    func validate() throws {
        guard let format = Barcode.Format(name: format) else {
            throw ValidationError("--format must be pdf417, qr, aztec, code128, code39, codabar, ean13 or i2of5, not \"\(self.format)\"")
        }
        guard ["png", "svg"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            throw ValidationError("--output must end in .png or .svg")
        }
        if let scale, !(1...100).contains(scale) { throw ValidationError("--scale must be between 1 and 100") }
        if let ecLevel {
            guard format == .qr else { throw ValidationError("--ec-level applies to --format qr only") }
            guard BarcodeRenderer.QRErrorCorrection(name: ecLevel) != nil else {
                throw ValidationError("--ec-level must be L, M, Q or H")
            }
        }
        if (pdf417SecurityLevel != nil || pdf417Columns != nil) && format != .pdf417 {
            throw ValidationError("--pdf417-security-level and --pdf417-columns apply to --format pdf417 only")
        }
        if let pdf417SecurityLevel, !(0...8).contains(pdf417SecurityLevel) {
            throw ValidationError("--pdf417-security-level must be between 0 and 8")
        }
        if let pdf417Columns, !(1...30).contains(pdf417Columns) {
            throw ValidationError("--pdf417-columns must be between 1 and 30")
        }
    }

    func run() throws {
        let barcode = Barcode(format: Barcode.Format(name: format)!, message: message, messageEncoding: encoding, altText: altText)
        let configuration = BarcodeRenderer.Configuration(
            qrErrorCorrection: ecLevel.flatMap(BarcodeRenderer.QRErrorCorrection.init(name:)) ?? .medium,
            pdf417SecurityLevel: pdf417SecurityLevel, pdf417Columns: pdf417Columns)
        let url = URL(fileURLWithPath: output)
        let isSVG = url.pathExtension.lowercased() == "svg"
        try Loading.checkOutputFile(output, example: "barcode.\(isSVG ? "svg" : "png")")
        let matrix: BarcodeMatrix
        let bytes: Data
        do {
            matrix = try BarcodeRenderer.render(barcode, configuration: configuration)
            bytes = isSVG ? Data(try matrix.svg(scale: scale, altText: altText).utf8) : try matrix.pngData(scale: scale)
        } catch let error as BarcodeError {
            throw CommandFailure(message: error.description)
        }
        do {
            try bytes.write(to: url, options: .atomic)  // a temporary file beside the output, then a rename
        } catch {
            throw CommandFailure(message: "\(output): cannot write: \(error.localizedDescription)")
        }
        let pixels = (scale ?? barcode.format.defaultScale)
        let size = isSVG ? matrix.svgSize(scale: scale, altText: altText)
            : (width: matrix.fullWidth * pixels, height: matrix.fullHeight * pixels)
        print("\(output): \(barcode.format.rawValue), \(matrix.width)x\(matrix.height) modules, "
            + "\(size.width)x\(size.height) px \(isSVG ? "SVG" : "PNG")")
    }
}
