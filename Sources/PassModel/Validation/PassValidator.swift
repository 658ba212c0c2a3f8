public import Foundation
@_exported public import Validation

/// Checks a pass against Apple's `pass.json` reference and bundle rules, reporting every problem at
/// once, each with a JSON or file path and a plain reason.
///
/// Severity: an **error** means Wallet would refuse the pass (missing or mistyped required keys, bad
/// dates, URLs, colours, barcodes, missing icon, unreadable images or strings files). A **warning**
/// means Wallet opens it but ignores or mis-shows something (too many fields for the layout, images the
/// style does not use, image sizes, unknown keys, untranslated strings, formatting constants it does not know).
public struct PassValidator: Sendable {
    /// Creates a validator.
    public init() {}

    /// Validates `pass.json` bytes and the other files of the bundle.
    ///
    /// Values of the wrong type are reported with their path and then ignored, so the rest of the pass
    /// is still checked. To validate many passes with the same files, prepare them once with
    /// ``PreparedFiles`` and call ``validate(passJSON:prepared:)``.
    /// - Parameters:
    ///   - passJSON: The `pass.json` bytes.
    ///   - files: Every other bundle file by relative path (`icon.png`, `en.lproj/pass.strings`,
    ///     `fr.lproj/logo@2x.png`), excluding `pass.json`, `manifest.json` and `signature`.
    /// - Returns: The report.
    public func validate(passJSON: Data, files: [String: Data]) -> ValidationReport {
        validate(passJSON: passJSON, prepared: PreparedFiles(files: files))
    }

    /// Validates `pass.json` bytes against bundle files parsed beforehand.
    ///
    /// Gives the same report as ``validate(passJSON:files:)`` with the files the ``PreparedFiles`` was
    /// made from, without reading PNG headers or `.strings` files again: the cheap way to check every
    /// pass made from one template.
    /// - Parameters:
    ///   - passJSON: The `pass.json` bytes.
    ///   - prepared: The other bundle files, parsed once.
    /// - Returns: The report.
    public func validate(passJSON: Data, prepared: PreparedFiles) -> ValidationReport {
        var context = ValidationContext()
        for duplicate in JSONDuplicateKeys.find(in: passJSON) { context.error(duplicate.path, duplicate.message) }
        guard let pass = JSONCoding.decodeReportingTypeErrors(Pass.self, from: passJSON, file: "pass.json", context: &context) else {
            return ValidationReport(issues: context.issues)
        }
        check(pass, files: prepared, context: &context)
        return ValidationReport(issues: context.issues)
    }

    /// Validates a decoded pass and the other files of the bundle.
    /// - Parameters:
    ///   - pass: The pass.
    ///   - files: Every other bundle file by relative path, excluding `pass.json`, `manifest.json` and `signature`.
    /// - Returns: The report.
    public func validate(pass: Pass, files: [String: Data]) -> ValidationReport {
        validate(pass: pass, prepared: PreparedFiles(files: files))
    }

    /// Validates a decoded pass against bundle files parsed beforehand.
    /// - Parameters:
    ///   - pass: The pass.
    ///   - prepared: The other bundle files, parsed once.
    /// - Returns: The report, the same as ``validate(pass:files:)`` gives for the same files.
    public func validate(pass: Pass, prepared: PreparedFiles) -> ValidationReport {
        var context = ValidationContext()
        check(pass, files: prepared, context: &context)
        return ValidationReport(issues: context.issues)
    }

    private func check(_ pass: Pass, files: PreparedFiles, context: inout ValidationContext) {
        checkStandardKeys(pass, context: &context)
        checkColors(pass, context: &context)
        checkUnknownKeys(pass, context: &context)
        checkStyleAndFields(pass, context: &context)
        checkRelevance(pass, context: &context)
        checkServices(pass, context: &context)
        checkLinks(pass, context: &context)
        checkSemantics(pass, context: &context)
        checkUpcomingPassInformation(pass, context: &context)
        checkStyleSchemes(pass, files: files, context: &context)
        checkBarcodes(pass, context: &context)
        checkFiles(pass, files: files, context: &context)
        checkLocalization(pass, files: files, context: &context)
    }

    private func checkStandardKeys(_ pass: Pass, context: inout ValidationContext) {
        let required: [(String, String?)] = [
            ("description", pass.description), ("organizationName", pass.organizationName),
            ("passTypeIdentifier", pass.passTypeIdentifier), ("serialNumber", pass.serialNumber),
            ("teamIdentifier", pass.teamIdentifier),
        ]
        for (key, value) in required {
            if value == nil {
                context.error(key, "required key is missing")
            } else if value!.trimmingWhitespace().isEmpty {
                context.error(key, "must not be empty")
            }
        }
        switch pass.formatVersion {
        case nil: context.error("formatVersion", "required key is missing")
        case 1: break
        case let version?: context.error("formatVersion", "must be 1, found \(version)")
        }
        if let identifier = pass.passTypeIdentifier, !identifier.isEmpty, !identifier.hasPrefix("pass.") {
            context.warning("passTypeIdentifier", "pass type identifiers start with \"pass.\", found \"\(identifier)\"")
        }
        if let team = pass.teamIdentifier, !team.isEmpty, !Self.isPlainTeamIdentifier(team),
            team.count != 10 || !team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
        {
            context.warning("teamIdentifier", "does not look like a team ID (10 uppercase letters and digits)")
        }
    }

    /// Whether `team` is 10 ASCII uppercase letters and digits: the common case, checked on bytes.
    private static func isPlainTeamIdentifier(_ team: String) -> Bool {
        team.utf8.count == 10 && team.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    private func checkColors(_ pass: Pass, context: inout ValidationContext) {
        let colors = [
            ("backgroundColor", pass.backgroundColor), ("foregroundColor", pass.foregroundColor),
            ("labelColor", pass.labelColor), ("stripColor", pass.stripColor),
            ("footerBackgroundColor", pass.footerBackgroundColor),
        ]
        for case let (key, value?) in colors {
            Self.checkColor(value, path: key, context: &context)
        }
    }

    static func checkColor(_ value: String, path: @autoclosure () -> String, context: inout ValidationContext) {
        if isPlainRGB(value) { return }
        let path = path()
        let text = value.trimmingWhitespace()
        if text.hasPrefix("#") {
            let hex = text.dropFirst()
            if hex.count == 6, hex.allSatisfy(\.isHexDigit) {
                context.warning(path, "hex colours are undocumented; write rgb(r, g, b)")
            } else {
                context.error(path, "must be a colour written rgb(r, g, b), found \"\(value)\"")
            }
            return
        }
        guard text.hasPrefix("rgb("), text.hasSuffix(")") else {
            context.error(path, "must be a colour written rgb(r, g, b), found \"\(value)\"")
            return
        }
        let parts = text.dropFirst(4).dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            context.error(path, "must have three components, rgb(r, g, b), found \"\(value)\"")
            return
        }
        for part in parts {
            let component = part.trimmingWhitespace()
            guard let number = Int(component), (0...255).contains(number) else {
                context.error(path, "colour components must be whole numbers from 0 to 255, found \"\(component)\"")
                return
            }
        }
    }

    /// Whether `value` is `rgb(r, g, b)` in ASCII with components from 0 to 255 of at most three digits,
    /// optionally surrounded by spaces or tabs: a valid colour, recognised without the general parse.
    static func isPlainRGB(_ value: String) -> Bool {
        var bytes = value.utf8.makeIterator()
        for expected in "rgb(".utf8 where bytes.next() != expected { return false }
        for component in 0..<3 {
            var byte = bytes.next()
            while byte == 0x20 || byte == 0x09 { byte = bytes.next() }
            var number = 0
            var digits = 0
            while let digit = byte, (0x30...0x39).contains(digit) {
                number = number * 10 + Int(digit - 0x30)
                digits += 1
                byte = bytes.next()
            }
            guard (1...3).contains(digits), number <= 255 else { return false }
            while byte == 0x20 || byte == 0x09 { byte = bytes.next() }
            guard byte == (component == 2 ? UInt8(ascii: ")") : UInt8(ascii: ",")) else { return false }
        }
        return bytes.next() == nil
    }

    private func checkUnknownKeys(_ pass: Pass, context: inout ValidationContext) {
        for key in pass.unknownKeys.keys.sorted() where !Pass.documentedUntypedKeys.contains(key) {
            if PassStyle.allCases.contains(where: { $0.rawValue.lowercased() == key.lowercased() }) {
                context.warning(key, "unknown key, kept as is (style keys are case-sensitive)")
            } else {
                context.warning(key, "unknown key, kept as is")
            }
        }
    }

    package static func warnUnknownKeys(
        _ keys: [String: JSONValue],
        at path: @autoclosure () -> String,
        context: inout ValidationContext
    ) {
        guard !keys.isEmpty else { return }
        let path = path()
        for key in keys.keys.sorted() {
            context.warning("\(path).\(key)", "unknown key, kept as is")
        }
    }

    /// "unknown value X, expected one of A, B, C".
    static func unknownValue<E: PassEnumeration>(_ value: E) -> String {
        "unknown value \"\(value.rawValue)\", expected one of \(E.knownValues.map(\.rawValue).joined(separator: ", "))"
    }
}

/// Collects issues while validating.
package struct ValidationContext {
    /// The issues so far.
    package var issues: [ValidationIssue] = []
    /// Paths already reported as having the wrong type; later issues at the same path are dropped.
    package var suppressed: Set<String> = []

    /// An empty context.
    package init() {}

    /// Reports an error; the path and message are built only here, when there is something to report.
    package mutating func error(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        add(.error, path(), message())
    }

    /// Reports a warning; the path and message are built only here, when there is something to report.
    package mutating func warning(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        add(.warning, path(), message())
    }

    private mutating func add(_ severity: ValidationIssue.Severity, _ path: String, _ message: String) {
        guard !suppressed.contains(path) else { return }
        issues.append(ValidationIssue(severity: severity, path: path, message: message))
    }
}

extension JSONValue {
    /// Removes the value at a coding path; returns whether something was removed.
    mutating func removeValue(at path: ArraySlice<any CodingKey>) -> Bool {
        guard let first = path.first else { return false }
        let rest = path.dropFirst()
        switch self {
        case .object(var members):
            guard var child = members[first.stringValue] else { return false }
            if rest.isEmpty {
                members[first.stringValue] = nil
            } else {
                guard child.removeValue(at: rest) else { return false }
                members[first.stringValue] = child
            }
            self = .object(members)
            return true
        case .array(var elements):
            guard let index = first.intValue, elements.indices.contains(index) else { return false }
            if rest.isEmpty {
                elements.remove(at: index)
            } else {
                guard elements[index].removeValue(at: rest) else { return false }
            }
            self = .array(elements)
            return true
        default:
            return false
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: what `trimmingCharacters(in: .whitespaces)`
    /// gives (Unicode space separators and U+0009), without its costly trip through `NSString`.
    package func trimmingWhitespace() -> String {
        // Nothing to trim when both ends are ASCII other than a space or a tab (the only ASCII characters trimmed).
        if let first = unicodeScalars.first?.value, let last = unicodeScalars.last?.value, first < 0x80, last < 0x80,
            first != 0x20, first != 0x09, last != 0x20, last != 0x09
        {
            return String(self)
        }
        let isWhitespace = { (scalar: Unicode.Scalar) in
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isWhitespace($0) })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
