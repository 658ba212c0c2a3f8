import Foundation
import PassModel

/// The pass's files as the preview uses them: the language's `pass.strings` and each image as a `data:` URI with its
/// size in points, localized images first and `@2x` preferred.
struct PreviewResources: Sendable {
    /// An image ready to embed.
    struct Image: Sendable {
        /// `data:image/png;base64,...`
        var uri: String
        /// Size in points (pixels divided by the file's `@Nx` factor).
        var width: Double
        var height: Double
    }

    /// The language's strings (empty without a language or a `pass.strings`).
    let strings: [String: String]
    let images: [String: Image]

    static let imageNames = ["logo", "strip", "thumbnail", "background", "footer"]

    init(files: [String: Data], language: String?) {
        var strings: [String: String] = [:]
        if let language, let data = files["\(language).lproj/pass.strings"],
           let parsed = try? StringsFile(data: data, fileName: "\(language).lproj/pass.strings") {
            strings = parsed.entries
        }
        self.strings = strings
        var images: [String: Image] = [:]
        for name in Self.imageNames {
            if let image = Self.pick(name, files: files, language: language) { images[name] = image }
        }
        self.images = images
    }

    subscript(image name: String) -> Image? { images[name] }

    /// `xx.lproj/name@2x.png`, then `name@2x.png`, then the other scales, localized before unlocalized.
    private static func pick(_ name: String, files: [String: Data], language: String?) -> Image? {
        let folders = (language.map { ["\($0).lproj/"] } ?? []) + [""]
        for folder in folders {
            for (suffix, factor) in [("@2x", 2.0), ("", 1.0), ("@3x", 3.0)] {
                guard let data = files["\(folder)\(name)\(suffix).png"], let info = try? PNGInfo(data: data),
                      info.width > 0, info.height > 0 else { continue }
                return Image(uri: "data:image/png;base64," + data.base64EncodedString(),
                             width: Double(info.width) / factor, height: Double(info.height) / factor)
            }
        }
        return nil
    }
}
