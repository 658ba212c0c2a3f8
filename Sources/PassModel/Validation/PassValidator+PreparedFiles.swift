public import Foundation

extension PassValidator {
    /// A bundle's files other than `pass.json`, parsed once for validating many passes.
    ///
    /// Reading PNG files (each checked whole), `.strings` files and `personalization.json` does not depend on the pass, so
    /// a template's files can be prepared once and each pass made from it checked with
    /// ``PassValidator/validate(passJSON:prepared:)``:
    ///
    /// ```swift
    /// let prepared = PassValidator.PreparedFiles(files: template.files)
    /// for data in documents {
    ///     let report = PassValidator().validate(passJSON: try template.passJSON(applying: data), prepared: prepared)
    /// }
    /// ```
    public struct PreparedFiles: Sendable {
        /// The files as given, by relative path.
        public let files: [String: Data]

        /// Every path, sorted, with what it holds.
        let entries: [Entry]
        /// Whether `icon.png` or `icon.pdf` (the 1x icon Wallet requires) is at the top level.
        let hasIcon: Bool
        /// The other top-level icons (`icon@2x.png`, `icon@3x.png`), sorted.
        let otherIcons: [String]
        /// Whether any path names a strip image.
        let hasStrip: Bool
        /// The base names of every image present, at any scale or in any language folder (`artwork`, `icon`).
        let imageBases: Set<String>
        /// The language of every well-placed `xx.lproj` file.
        let languages: Set<String>
        /// Each language's `pass.strings`, empty when it does not parse.
        let strings: [String: StringsFile]
        /// `pass.strings` files that do not parse, sorted by path, with the reason.
        let stringsErrors: [(path: String, reason: String)]
        /// Every key of every `pass.strings` file.
        let stringsKeys: Set<String>
        /// ``languages``, sorted.
        let sortedLanguages: [String]
        /// The keys of ``stringsKeys`` that some language folder does not translate (or has no `pass.strings`).
        let partiallyTranslatedKeys: Set<String>
        /// For each key, the languages (sorted) whose translation lacks the `%@` a `changeMessage` needs.
        let languagesLackingPlaceholder: [String: [String]]

        struct Entry: Sendable {
            var path: String
            var kind: Kind
        }

        enum Kind: Sendable {
            /// Neither at the top level nor directly inside an `xx.lproj` folder.
            case misplaced
            /// A `pass.strings` file; `inLanguageFolder` is false at the top level.
            case strings(inLanguageFolder: Bool)
            /// The top-level `personalization.json`: its document, `nil` when it is not JSON.
            case personalization(JSONValue?)
            /// A PNG image: its base name, scale and header (or why the file does not read whole).
            case image(base: String, scale: Int, header: Result<PNGInfo, PassModelError>)
            /// A PDF image: its base name, scale and page size (or why it is not a PDF).
            case pdfImage(base: String, scale: Int, info: Result<PDFInfo, PassModelError>)
            /// Any other file.
            case other
        }

        /// Parses the files.
        /// - Parameter files: Every bundle file other than `pass.json` by relative path (`icon.png`,
        ///   `en.lproj/pass.strings`, `fr.lproj/logo@2x.png`), excluding `manifest.json` and `signature`.
        public init(files: [String: Data]) {
            self.init(files: files, reusing: nil)
        }

        /// Parses the files, taking what `earlier` found for each file it holds with the same bytes: a pass's own
        /// images replace a few of its template's files, and the others need not be read whole again.
        /// - Parameters:
        ///   - files: As for ``init(files:)``.
        ///   - earlier: Files parsed before, such as the template's.
        public init(files: [String: Data], reusing earlier: PreparedFiles?) {
            let known: [String: Kind] = earlier.map { earlier in
                Dictionary(uniqueKeysWithValues: earlier.entries.compactMap { entry in
                    files[entry.path] == earlier.files[entry.path] ? (entry.path, entry.kind) : nil
                })
            } ?? [:]
            self.files = files
            var entries: [Entry] = []
            var hasIcon = false
            var otherIcons: [String] = []
            var hasStrip = false
            var imageBases: Set<String> = []
            var languages: Set<String> = []
            var strings: [String: StringsFile] = [:]
            var stringsErrors: [(String, String)] = []
            for (path, data) in files.sorted(by: { $0.key < $1.key }) {
                let file = BundleFilePath(path)
                let image = file.image
                if file.language == nil, image?.base == "icon" {
                    if path == "icon.png" || path == "icon.pdf" { hasIcon = true } else { otherIcons.append(path) }
                }
                if image?.base == "strip" { hasStrip = true }
                if let image { imageBases.insert(image.base) }
                if file.isWellPlaced, let language = file.language {
                    languages.insert(language)
                    if file.fileName == "pass.strings" {
                        do {
                            strings[language] = try StringsFile(data: data, fileName: path)
                        } catch {
                            let reason = (error as? PassModelError)?.reason ?? "\(error)"
                            let prefix = "\(path), "
                            stringsErrors.append(
                                (path, reason.hasPrefix(prefix) ? String(reason.dropFirst(prefix.count)) : reason))
                            strings[language] = StringsFile(entries: [:])
                        }
                    }
                }
                entries.append(Entry(path: path, kind: known[path] ?? Self.kind(of: file, image: image, data: data)))
            }
            self.entries = entries
            self.hasIcon = hasIcon
            self.otherIcons = otherIcons
            self.hasStrip = hasStrip
            self.imageBases = imageBases
            self.languages = languages
            self.strings = strings
            self.stringsErrors = stringsErrors
            let stringsKeys: Set<String> = strings.values.reduce(into: []) { $0.formUnion($1.entries.keys) }
            self.stringsKeys = stringsKeys
            sortedLanguages = languages.sorted()
            partiallyTranslatedKeys = stringsKeys.filter { key in
                languages.contains { strings[$0]?.entries[key] == nil }
            }
            var lacking: [String: [String]] = [:]
            for language in sortedLanguages {
                for (key, translation) in strings[language]?.entries ?? [:] where !translation.contains("%@") {
                    lacking[key, default: []].append(language)
                }
            }
            languagesLackingPlaceholder = lacking
        }

        private static func kind(
            of file: BundleFilePath, image: (base: String, scale: Int, isPDF: Bool)?, data: Data
        ) -> Kind {
            guard file.isWellPlaced else { return .misplaced }
            if file.fileName == "pass.strings" { return .strings(inLanguageFolder: file.language != nil) }
            if file.fileName == "personalization.json", file.language == nil {
                return .personalization(try? JSONValue(jsonData: data))
            }
            guard let (base, scale, isPDF) = image else { return .other }
            if isPDF {
                do {
                    return .pdfImage(base: base, scale: scale, info: .success(try PDFInfo(data: data)))
                } catch {
                    let reason = (error as? PassModelError) ?? PassModelError(.invalidPDF, "\(error)")
                    return .pdfImage(base: base, scale: scale, info: .failure(reason))
                }
            }
            do {
                // The whole file, not only its header: a file cut short or damaged would be signed into every pass.
                return .image(base: base, scale: scale, header: .success(try PNGInfo.checkWhole(data)))
            } catch let error as PassModelError {
                return .image(base: base, scale: scale, header: .failure(error))
            } catch {
                return .image(base: base, scale: scale, header: .failure(PassModelError(.invalidPNG, "\(error)")))
            }
        }
    }
}
