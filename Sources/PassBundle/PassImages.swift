public import Foundation
public import PassModel

/// Images of one pass's own, given in its data document: the holder's photo on a membership card, a seat map on a
/// ticket.
///
/// A data document's `images` member is an object of bundle file name to the file's bytes in base64:
/// `{"thumbnail.png": "iVBORw0…", "thumbnail@2x.png": "…"}`. Each name is an image Wallet uses (`icon`, `logo`,
/// `thumbnail`, `strip`, `background`, `footer`, `artwork`, `primaryLogo`, `secondaryLogo`, `personalizationLogo`,
/// with an optional `@2x` or `@3x`) as a PNG, at the top of the bundle; each value is a readable PNG of at most
/// ``maximumImageSize`` bytes. The images replace the template's files of the same image (every scale, every
/// language folder: ``replacing(in:)``) for that pass only, and are
/// then checked like the template's (sizes Wallet expects are warnings, as for a template). An image the pass's style
/// does not show (`strip.png` on a generic pass) is an error: it would be signed and never seen.
public struct PassImages: Sendable, Equatable {
    /// The data document's key.
    public static let key = "images"
    /// The most bytes one image may have: 2 MiB, far above what Wallet shows at @3x.
    public static let maximumImageSize = 2 << 20

    /// The images by bundle file name.
    public let files: [String: Data]

    /// Whether there are none.
    public var isEmpty: Bool { files.isEmpty }

    /// Takes the `images` member out of a data document and reads it.
    /// - Parameter data: The data document; its `images` member is removed.
    /// - Throws: ``PassBundleError`` `.invalidPass` naming `images` or `images.<name>` and what is wrong with every
    ///   image at fault (not an object, a name Wallet does not use, not base64, not a PNG, too large).
    public init(taking data: inout PassData) throws {
        guard let member = data.overrides.removeValue(forKey: Self.key), member != .null else {
            files = [:]
            return
        }
        guard case .object(let given) = member else {
            throw Self.invalid([ValidationIssue(severity: .error, path: Self.key,
                message: "must be an object of image file name to its bytes in base64, found \(member.kindName)")])
        }
        var files: [String: Data] = [:]
        var issues: [ValidationIssue] = []
        for name in given.keys.sorted() {
            let path = "\(Self.key).\(name)"
            func refuse(_ message: String) { issues.append(ValidationIssue(severity: .error, path: path, message: message)) }
            guard Self.base(of: name) != nil else {
                refuse("not an image name Wallet uses: expected one of \(PassValidator.imageNames.joined(separator: ", ")) "
                    + "with an optional @2x or @3x, ending in .png (such as thumbnail@2x.png)")
                continue
            }
            guard case .string(let text) = given[name] else {
                refuse("must be the image's bytes in base64, found \(given[name]?.kindName ?? "nothing")")
                continue
            }
            guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
                refuse("not base64 (the image's bytes in base64 are expected)")
                continue
            }
            guard bytes.count <= Self.maximumImageSize else {
                refuse("\(bytes.count) bytes; an image may have at most \(Self.maximumImageSize >> 20) MiB")
                continue
            }
            do {
                // The whole file, not only its header: the holder's device must be able to draw it.
                try PNGInfo.checkWhole(bytes)
            } catch let error as PassModelError {
                refuse("not a valid PNG image: \(error.reason)")
                continue
            } catch {
                refuse("not a valid PNG image: \(error)")
                continue
            }
            files[name] = bytes
        }
        guard issues.isEmpty else { throw Self.invalid(issues) }
        self.files = files
    }

    /// A template's files with these images in place: an image given replaces the template's files of that image at
    /// every scale and in every language folder (`thumbnail.png` given: the template's `thumbnail@2x.png`,
    /// `thumbnail@3x.png`, `thumbnail.pdf` and `fr.lproj/thumbnail.png` go too), so that no device shows the template's picture at a
    /// scale or in a language the data did not give. Wallet scales the scales given for the others.
    /// - Parameter templateFiles: The template's files by bundle path.
    /// - Returns: The pass's files.
    public func replacing(in templateFiles: [String: Data]) -> [String: Data] {
        guard !files.isEmpty else { return templateFiles }
        let given = Set(files.keys.compactMap(Self.base(of:)))
        var result = templateFiles.filter { path, _ in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let folder = path.dropLast(name.count)
            guard folder.isEmpty || (folder.hasSuffix(".lproj/") && !folder.dropLast().contains("/")) else { return true }
            // A template's PDF of the image goes too: a PNG and a PDF of one image would both be signed.
            return PassValidator.imageBase(ofPNGOrPDF: name).map { !given.contains($0) } ?? true
        }
        result.merge(files) { $1 }
        return result
    }

    /// Errors for images the style does not show.
    /// - Parameter style: The pass's style.
    /// - Returns: One error per image Wallet would ignore, naming it.
    func issues(style: PassStyle?) -> [ValidationIssue] {
        guard let style else { return [] }
        let shown = PassValidator.images(for: style)
        return files.keys.sorted().compactMap { name in
            guard let base = Self.base(of: name), !shown.contains(base) else { return nil }
            return ValidationIssue(severity: .error, path: "\(Self.key).\(name)",
                message: "\(style.rawValue) passes do not show a \(base) image; they show "
                    + shown.sorted().joined(separator: ", "))
        }
    }

    /// The image a file name is (`thumbnail` for `thumbnail@2x.png`), or `nil` when Wallet does not use that name.
    static func base(of name: String) -> String? {
        PassValidator.imageBase(ofPNG: name)
    }

    private static func invalid(_ issues: [ValidationIssue]) -> PassBundleError {
        PassBundleError(.invalidPass, "the pass's images are not valid:\n" + issues.map { "  \($0)" }.joined(separator: "\n"),
                        issues: issues)
    }
}
