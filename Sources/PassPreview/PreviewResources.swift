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

    /// The strings of ``localization`` (empty without one or without a `pass.strings`).
    let strings: [String: String]
    /// The `xx.lproj` folder whose strings and images are used (see ``localization(for:in:)``), or `nil`.
    let localization: String?
    /// Every language the pass has an `xx.lproj` folder for, sorted.
    let localizations: [String]
    let images: [String: Image]

    static let imageNames = ["logo", "strip", "thumbnail", "background", "footer", "artwork", "primaryLogo",
                             "secondaryLogo"]

    init(files: [String: Data], language: String?) {
        let localization = Self.localization(for: language, in: files)
        var strings: [String: String] = [:]
        if let localization, let data = files["\(localization).lproj/pass.strings"],
           let parsed = try? StringsFile(data: data, fileName: "\(localization).lproj/pass.strings") {
            strings = parsed.entries
        }
        self.strings = strings
        self.localization = localization
        localizations = Self.localizations(in: files)
        let language = localization
        var images: [String: Image] = [:]
        for name in Self.imageNames {
            if let image = Self.pick(name, files: files, language: language) { images[name] = image }
        }
        self.images = images
    }

    subscript(image name: String) -> Image? { images[name] }

    /// The languages the pass has an `xx.lproj` folder for.
    static func localizations(in files: [String: Data]) -> [String] {
        Set(files.keys.compactMap { path -> String? in
            guard let slash = path.firstIndex(of: "/") else { return nil }
            let folder = path[..<slash]
            return folder.hasSuffix(".lproj") ? String(folder.dropLast(".lproj".count)) : nil
        }).sorted()
    }

    /// The localization Wallet uses for a device in `language`, as the preview picks it: the pass's folder for the
    /// language (`fr-CA`, then `fr`); when it has none, Wallet uses another of the pass's localizations (the
    /// device's next preferred language, else one of its own choosing), so the preview takes `en` when the pass has
    /// it, else the first in alphabetical order. Within the chosen folder, a key its `pass.strings` lacks is shown as
    /// the key itself, as Wallet does.
    static func localization(for language: String?, in files: [String: Data]) -> String? {
        let available = localizations(in: files)
        guard !available.isEmpty else { return nil }
        if let language {
            if available.contains(language) { return language }
            let base = String(language.prefix { $0 != "-" && $0 != "_" })
            if available.contains(base) { return base }
        }
        return available.contains("en") ? "en" : available.first
    }

    /// `xx.lproj/name@2x.png`, then `name@2x.png`, then the other scales, localized before unlocalized.
    private static func pick(_ name: String, files: [String: Data], language: String?) -> Image? {
        let folders = (language.map { ["\($0).lproj/"] } ?? []) + [""]
        for folder in folders {
            for (suffix, factor) in [("@2x", 2.0), ("", 1.0), ("@3x", 3.0)] {
                // An image past the pixels any pass image may have is not drawn: the rasterizer would decode it
                // whole (a 16,000-pixel square of 1 MB is a gigabyte), and a .pkpass from anyone can hold one.
                guard let data = files["\(folder)\(name)\(suffix).png"], let info = try? PNGInfo(data: data),
                      info.width > 0, info.height > 0, info.width * info.height <= PNGInfo.maximumPixels else { continue }
                return Image(uri: "data:image/png;base64," + data.base64EncodedString(),
                             width: Double(info.width) / factor, height: Double(info.height) / factor)
            }
        }
        return nil
    }
}
