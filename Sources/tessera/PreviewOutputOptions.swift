import ArgumentParser
import Foundation
import PassPreview

/// What `pass preview` and `order preview` share: where the picture goes (SVG or PNG, written whole or not at all),
/// its scale, and the time zone dates are shown in.
struct PreviewOutputOptions: ParsableArguments {
    @Option(help: "Time zone dates are shown in, as on a device there (IANA name; default: this machine's).")
    var timeZone: String?

    @Option(help: "PNG pixels per point, 0.25-8.")
    var scale: Double = 2

    @Option(help: "Output file: FILE.png or FILE.svg (written whole or not at all).")
    var output: String

    func validate() throws {
        guard ["png", "svg"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            throw ValidationError("--output must end in .png or .svg, not \"\(output)\"")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--time-zone: unknown time zone \"\(timeZone)\"")
        }
        guard scale >= 0.25 && scale <= 8 else { throw ValidationError("--scale must be between 0.25 and 8") }
    }

    /// The time zone to show dates in.
    var resolvedTimeZone: TimeZone { timeZone.flatMap(TimeZone.init(identifier:)) ?? .current }

    /// Whether the output is an SVG (otherwise a PNG).
    var isSVG: Bool { URL(fileURLWithPath: output).pathExtension.lowercased() == "svg" }

    /// Draws the picture the output asks for and writes it atomically (a temporary file beside it, then a rename).
    /// - Parameters:
    ///   - svg: The SVG document.
    ///   - png: The PNG at ``scale``.
    /// - Throws: ``CommandFailure`` naming what failed.
    func write(svg: () -> String, png: (Double) throws -> Data) throws {
        try Loading.checkOutputFile(output, example: "preview.\(isSVG ? "svg" : "png")")
        let bytes: Data
        do {
            bytes = isSVG ? Data(svg().utf8) : try png(scale)
        } catch let error as PassPreviewError {
            throw CommandFailure(message: error.description)
        }
        do {
            try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure(message: "\(output): cannot write: \(error.localizedDescription)")
        }
    }
}
