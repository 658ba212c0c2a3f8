import Foundation

extension PassValidator {
    /// Checks `upcomingPassInformation`: each entry's required members, unique identifiers, dates and time
    /// zones, event-guide links, remote images (an `https` URL, a SHA-256 of 64 hexadecimal digits, a scale
    /// and a size Wallet downloads), fields and semantic tags, reporting every problem at once.
    func checkUpcomingPassInformation(_ pass: Pass, context: inout ValidationContext) {
        guard let entries = pass.upcomingPassInformation else { return }
        if let style = pass.style, style != .eventTicket {
            context.warning(
                "upcomingPassInformation",
                "Wallet shows upcoming events only on event tickets; a \(style.rawValue) pass ignores them")
        }
        var identifiers: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "upcomingPassInformation[\(index)]"
            if let identifier = entry.identifier, !identifier.trimmingWhitespace().isEmpty {
                if let first = identifiers[identifier] {
                    context.error(
                        "\(path).identifier",
                        "duplicate identifier \"\(identifier)\", also used at upcomingPassInformation[\(first)]")
                } else {
                    identifiers[identifier] = index
                }
            } else {
                context.error("\(path).identifier", entry.identifier == nil ? "required key is missing" : "must not be empty")
            }
            if let name = entry.name {
                if name.trimmingWhitespace().isEmpty { context.error("\(path).name", "must not be empty") }
            } else {
                context.error("\(path).name", "required key is missing")
            }
            if let type = entry.type {
                if type != UpcomingPassInformationEntry.eventType {
                    context.warning(
                        "\(path).type", "unknown value \"\(type)\", expected event (the only type Apple documents)")
                }
            } else {
                context.error("\(path).type", "required key is missing")
            }
            checkUpcomingEntry(entry, path: path, context: &context)
        }
    }

    private func checkUpcomingEntry(_ entry: UpcomingPassInformationEntry, path: String, context: inout ValidationContext) {
        if let info = entry.dateInformation {
            let infoPath = "\(path).dateInformation"
            if let date = info.date, let problem = W3CDate.problem(with: date) {
                context.error("\(infoPath).date", "must be a W3C date: \(problem)")
            }
            if let zone = info.timeZone, TimeZone(identifier: zone) == nil {
                context.error(
                    "\(infoPath).timeZone", "must be an IANA time zone name such as America/Chicago, found \"\(zone)\"")
            }
            Self.warnUnknownKeys(info.unknownKeys, at: infoPath, context: &context)
        }
        if let images = entry.images {
            let imagesPath = "\(path).images"
            if let image = images.headerImage { checkRemoteImage(image, path: "\(imagesPath).headerImage", context: &context) }
            if let image = images.venueMap { checkRemoteImage(image, path: "\(imagesPath).venueMap", context: &context) }
            Self.warnUnknownKeys(images.unknownKeys, at: imagesPath, context: &context)
        }
        if let urls = entry.urls {
            let urlsPath = "\(path).URLs"
            for (key, keyPath) in UpcomingPassInformationEntry.URLs.members {
                guard let value = urls[keyPath: keyPath] else { continue }
                if key == "contactVenueEmail" {
                    if !Self.isEmailAddress(value) {
                        context.error(
                            "\(urlsPath).\(key)", "must be an email address such as tickets@example.com, found \"\(value)\"")
                    }
                } else if UpcomingPassInformationEntry.URLs.urlKeys.contains(key) {
                    Self.checkLink(value, path: "\(urlsPath).\(key)", context: &context)
                }
            }
            Self.warnUnknownKeys(urls.unknownKeys, at: urlsPath, context: &context)
        }
        for (group, fields) in [("additionalInfoFields", entry.additionalInfoFields), ("backFields", entry.backFields)] {
            var keys: [String: FieldPath] = [:]
            for (index, field) in (fields ?? []).enumerated() {
                let fieldPath = FieldPath(style: path, group: group, index: index)
                if let key = field.key, !key.isEmpty {
                    if let first = keys[key] {
                        context.error(fieldPath["key"], "duplicate field key \"\(key)\", also used at \(first)")
                    } else {
                        keys[key] = fieldPath
                    }
                } else {
                    context.error(fieldPath["key"], field.key == nil ? "required key is missing" : "must not be empty")
                }
                checkField(field, path: fieldPath, isEventAuxiliary: false, context: &context)
            }
        }
        for (index, identifier) in (entry.auxiliaryStoreIdentifiers ?? []).enumerated() where identifier <= 0 {
            context.error(
                "\(path).auxiliaryStoreIdentifiers[\(index)]", "must be a positive App Store identifier, found \(identifier)")
        }
        if let semantics = entry.semantics { checkSemantics(semantics, path: "\(path).semantics", context: &context) }
        Self.warnUnknownKeys(entry.unknownKeys, at: path, applesSpelling: ["urls": "URLs"], context: &context)
    }

    /// A remote image needs its files (`URLs`) unless it reuses the pass's own image.
    private func checkRemoteImage(
        _ image: UpcomingPassInformationEntry.Image,
        path: String,
        context: inout ValidationContext
    ) {
        let entries = image.urls ?? []
        if image.reuseExisting == true {
            if !entries.isEmpty {
                context.warning("\(path).URLs", "ignored: reuseExisting is true, so Wallet shows the pass's own image")
            }
        } else if entries.isEmpty {
            context.error(path, "needs URLs with at least one image file, or reuseExisting set to true")
        }
        var scales: [Double: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let entryPath = "\(path).URLs[\(index)]"
            if let url = entry.url {
                if URL(string: url)?.scheme?.lowercased() == "http" {
                    context.error("\(entryPath).URL", "must be an https URL; Wallet does not download images over http")
                } else {
                    Self.checkLink(url, path: "\(entryPath).URL", context: &context)
                }
            } else {
                context.error("\(entryPath).URL", "required key is missing")
            }
            if let hash = entry.sha256 {
                if hash.utf8.count != 64 || !hash.utf8.allSatisfy(Self.isHexDigit) {
                    context.error(
                        "\(entryPath).SHA256", "must be the file's SHA-256 as 64 hexadecimal digits, found \"\(hash)\"")
                }
            } else {
                context.error("\(entryPath).SHA256", "required key is missing")
            }
            if let scale = entry.scale {
                if !(scale > 0) || !scale.isFinite {
                    context.error("\(entryPath).scale", "must be a positive number such as 1, 2 or 3, found \(scale)")
                } else if let first = scales[scale] {
                    context.warning(
                        "\(entryPath).scale",
                        "same scale as \(path).URLs[\(first)]; Wallet downloads only one file per scale")
                } else {
                    scales[scale] = index
                }
            }
            if let size = entry.size {
                let maximum = UpcomingPassInformationEntry.ImageURLEntry.maximumSize
                if size <= 0 {
                    context.error("\(entryPath).size", "must be the file's size in bytes, found \(size)")
                } else if size > maximum {
                    context.error(
                        "\(entryPath).size", "is \(size) bytes; Wallet downloads images of at most \(maximum) bytes (2 MB)")
                }
            }
            Self.warnUnknownKeys(
                entry.unknownKeys, at: entryPath, applesSpelling: ["url": "URL", "sha256": "SHA256"], context: &context)
        }
        Self.warnUnknownKeys(image.unknownKeys, at: path, applesSpelling: ["urls": "URLs"], context: &context)
    }

    /// Unknown keys are warnings; the ones Pass Builder writes in lower case name Apple's spelling.
    private static func warnUnknownKeys(
        _ keys: [String: JSONValue],
        at path: String,
        applesSpelling: [String: String],
        context: inout ValidationContext
    ) {
        for key in keys.keys.sorted() {
            if let apple = applesSpelling[key] {
                context.warning("\(path).\(key)", "Apple spells this key \(apple); Wallet ignores \(key)")
            } else {
                context.warning("\(path).\(key)", "unknown key, kept as is")
            }
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
