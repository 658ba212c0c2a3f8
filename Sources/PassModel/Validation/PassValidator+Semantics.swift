import Foundation

extension PassValidator {
    /// Checks every tag of `semantics` against the kind Apple documents for it, reporting every mismatch
    /// at once: a value of the wrong type is an error (Wallet drops the semantics it cannot read), an
    /// unknown constant or tag a warning, another library's spelling a warning naming Apple's.
    ///
    /// On a pass that asks for the poster event ticket layout, an `eventType` other than Apple's constants is an
    /// error, as in Apple's own validator (Pass Builder); elsewhere it is a warning like other unknown constants.
    func checkSemantics(_ pass: Pass, context: inout ValidationContext) {
        guard let semantics = pass.semantics else { return }
        checkSemantics(
            semantics, path: "semantics", posterEventTicket: Self.asksForPosterEventTicket(pass), context: &context)
    }

    /// Checks one `semantics` dictionary (the pass's or an upcoming event's) found at `root`; `posterEventTicket`
    /// makes an unknown `eventType` an error.
    func checkSemantics(
        _ semantics: JSONValue,
        path root: @autoclosure () -> String,
        posterEventTicket: Bool = false,
        context: inout ValidationContext
    ) {
        guard case .object(let members) = semantics else {
            context.error(root(), "expected an object, found \(semantics.kindName)")
            return
        }
        // Every pass made from a template carries the template's semantics: check them without building a
        // path, sorting or allocating, and take the reporting path below only when something is wrong.
        if members.allSatisfy({ Self.isClean($0.value, key: $0.key) }) { return }
        let root = root()
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            if let apple = PassSemanticTags.alternateSpellings[key] {
                let path = "\(root).\(key)"
                if members[apple] != nil {
                    context.warning(path, "Apple spells this tag \(apple), which is also present; this one is left out")
                } else {
                    context.warning(path, "Apple spells this tag \(apple); Tessera writes it as \(apple)")
                    if let kind = PassSemanticTags.kinds[apple] {
                        check(PassSemanticTags.applesValue(value, alias: key), as: kind, path: path, context: &context)
                    }
                }
                continue
            }
            guard let kind = PassSemanticTags.kinds[key] else {
                context.warning("\(root).\(key)", "unknown semantic tag, kept as is")
                continue
            }
            if posterEventTicket, key == "eventType", let text = value.stringValue,
                !PassSemanticTags.eventTypes.contains(text)
            {
                context.error(
                    "\(root).\(key)",
                    "unknown value \"\(text)\" on a poster event ticket (preferredStyleSchemes lists posterEventTicket), "
                        + "expected one of \(PassSemanticTags.eventTypes.joined(separator: ", "))")
                continue
            }
            check(value, as: kind, path: "\(root).\(key)", context: &context)
        }
    }

    /// Checks one value; `path` is built only when there is something to report.
    private func check(
        _ value: JSONValue,
        as kind: PassSemanticTags.Kind,
        path makePath: @autoclosure () -> String,
        context: inout ValidationContext
    ) {
        // The common cases, values of the right kind, are checked without building the path.
        switch (kind, value) {
        case (.string, .string), (.number, .integer), (.number, .number), (.boolean, .bool): return
        case (.date, .string(let text)) where W3CDate.problem(with: text) == nil: return
        default: break
        }
        let path = makePath()
        func mismatch(_ expected: String) {
            context.error(path, "expected \(expected), found \(value.kindName)")
        }
        switch kind {
        case .string:
            if value.stringValue == nil { mismatch("a string") }
        case .number:
            if value.doubleValue == nil { mismatch("a number") }
        case .boolean:
            if value.boolValue == nil { mismatch("a boolean") }
        case .date:
            guard let text = value.stringValue else { return mismatch("a W3C date string") }
            if let problem = W3CDate.problem(with: text) { context.error(path, "must be a W3C date: \(problem)") }
        case .timeZone:
            guard let text = value.stringValue else { return mismatch("a string") }
            if TimeZone(identifier: text) == nil {
                context.error(path, "must be an IANA time zone name such as America/Chicago, found \"\(text)\"")
            }
        case .strings:
            checkArray(value, path: path, context: &context) { element, elementPath, context in
                if element.stringValue == nil {
                    context.error(elementPath, "expected a string, found \(element.kindName)")
                }
            }
        case .enumeration(let values):
            guard let text = value.stringValue else { return mismatch("a string") }
            if !values.contains(text) {
                context.warning(path, "unknown value \"\(text)\", expected one of \(values.joined(separator: ", "))")
            }
        case .enumerations(let values):
            checkArray(value, path: path, context: &context) { element, elementPath, context in
                guard let text = element.stringValue else {
                    return context.error(elementPath, "expected a string, found \(element.kindName)")
                }
                if !values.contains(text) {
                    context.warning(
                        elementPath, "unknown value \"\(text)\", expected one of \(values.joined(separator: ", "))")
                }
            }
        case .location:
            checkObject(value, path: path, context: &context) { members, context in
                for key in ["latitude", "longitude"] {
                    guard let member = members[key] else {
                        context.error("\(path).\(key)", "required key is missing")
                        continue
                    }
                    if member.doubleValue == nil {
                        context.error("\(path).\(key)", "expected a number, found \(member.kindName)")
                    }
                }
                let limits = ["latitude": 90.0, "longitude": 180.0]
                for (key, limit) in limits {
                    if let number = members[key]?.doubleValue, abs(number) > limit {
                        context.error("\(path).\(key)", "must be between -\(Int(limit)) and \(Int(limit)), found \(number)")
                    }
                }
            }
        case .personName:
            checkObject(value, path: path, context: &context) { members, context in
                self.checkMembers(members, path: path, strings: Self.nameComponents, context: &context)
            }
        case .currencyAmount:
            checkObject(value, path: path, context: &context) { members, context in
                self.checkMembers(members, path: path, strings: ["amount", "currencyCode"], context: &context)
                if let amount = members["amount"]?.stringValue, !Self.isDecimalAmount(amount) {
                    context.error("\(path).amount", "must be a decimal number written as a string, such as \"42.50\"")
                }
                if let code = members["currencyCode"]?.stringValue, !Self.isCurrencyCode(code) {
                    context.error("\(path).currencyCode", "must be an ISO 4217 code such as USD, found \"\(code)\"")
                }
            }
        case .eventDateInfo:
            checkObject(value, path: path, context: &context) { members, context in
                self.checkMembers(
                    members, path: path, strings: ["date", "timeZone"],
                    booleans: ["ignoreTimeComponents", "unannounced", "undetermined"], context: &context)
                if let date = members["date"]?.stringValue, let problem = W3CDate.problem(with: date) {
                    context.error("\(path).date", "must be a W3C date: \(problem)")
                }
            }
        case .seats:
            checkArray(value, path: path, context: &context) { element, elementPath, context in
                self.checkObject(element, path: elementPath, context: &context) { members, context in
                    self.checkMembers(members, path: elementPath, strings: Self.seatKeys, context: &context)
                    if let color = members["seatSectionColor"]?.stringValue {
                        Self.checkColor(color, path: "\(elementPath).seatSectionColor", context: &context)
                    }
                }
            }
        case .wifiNetworks:
            checkArray(value, path: path, context: &context) { element, elementPath, context in
                self.checkObject(element, path: elementPath, context: &context) { members, context in
                    self.checkMembers(members, path: elementPath, strings: ["ssid", "password"], context: &context)
                    for key in ["ssid", "password"] where members[key] == nil {
                        context.error("\(elementPath).\(key)", "required key is missing")
                    }
                }
            }
        }
    }

    /// Whether a tag is documented, in Apple's spelling, and its value has the kind Apple documents with nothing
    /// to warn about: exactly when the reporting path would report nothing for it.
    private static func isClean(_ value: JSONValue, key: String) -> Bool {
        guard let kind = PassSemanticTags.kinds[key] else { return false }
        func strings(_ members: [String: JSONValue], allowed: [String]) -> Bool {
            members.allSatisfy { key, value in allowed.contains(key) && value.stringValue != nil }
        }
        switch (kind, value) {
        case (.string, .string), (.number, .integer), (.number, .number), (.boolean, .bool): return true
        case (.date, .string(let text)): return W3CDate.problem(with: text) == nil
        case (.timeZone, .string(let text)): return TimeZone(identifier: text) != nil
        case (.strings, .array(let elements)): return elements.allSatisfy { $0.stringValue != nil }
        case (.enumeration(let values), .string(let text)): return values.contains(text)
        case (.enumerations(let values), .array(let elements)):
            return elements.allSatisfy { $0.stringValue.map(values.contains) ?? false }
        case (.location, .object(let members)):
            guard members.count == 2, let latitude = members["latitude"]?.doubleValue,
                let longitude = members["longitude"]?.doubleValue
            else { return false }
            return abs(latitude) <= 90 && abs(longitude) <= 180
        case (.personName, .object(let members)): return strings(members, allowed: nameComponents)
        case (.currencyAmount, .object(let members)):
            guard strings(members, allowed: ["amount", "currencyCode"]) else { return false }
            if let amount = members["amount"]?.stringValue, !isDecimalAmount(amount) { return false }
            return members["currencyCode"]?.stringValue.map(isCurrencyCode) ?? true
        case (.eventDateInfo, _): return false
        case (.seats, .array(let seats)):
            return seats.allSatisfy { seat in
                guard case .object(let members) = seat, strings(members, allowed: seatKeys) else { return false }
                return members["seatSectionColor"]?.stringValue.map(isPlainRGB) ?? true
            }
        default: return false
        }
    }

    /// A decimal number written with ASCII digits, an optional `-` and `.`, such as `42.50`.
    private static func isDecimalAmount(_ amount: String) -> Bool {
        Decimal(string: amount) != nil && amount.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
    }

    /// Three ASCII capital letters, as ISO 4217 codes are.
    private static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }

    private static let nameComponents = [
        "namePrefix", "givenName", "middleName", "familyName", "nameSuffix", "nickname", "phoneticRepresentation",
    ]

    private static let seatKeys = [
        "seatDescription", "seatIdentifier", "seatNumber", "seatRow", "seatSection", "seatAisle", "seatLevel",
        "seatType", "seatSectionColor",
    ]

    private func checkArray(
        _ value: JSONValue,
        path: String,
        context: inout ValidationContext,
        element check: (JSONValue, String, inout ValidationContext) -> Void
    ) {
        guard case .array(let elements) = value else {
            return context.error(path, "expected an array, found \(value.kindName)")
        }
        for (index, element) in elements.enumerated() { check(element, "\(path)[\(index)]", &context) }
    }

    private func checkObject(
        _ value: JSONValue,
        path: String,
        context: inout ValidationContext,
        members check: ([String: JSONValue], inout ValidationContext) -> Void
    ) {
        guard case .object(let members) = value else {
            return context.error(path, "expected an object, found \(value.kindName)")
        }
        check(members, &context)
    }

    /// Each member is one of `strings` (holding a string; a name's `phoneticRepresentation` may also be a
    /// name object) or `booleans`; any other key is a warning.
    private func checkMembers(
        _ members: [String: JSONValue],
        path: String,
        strings: [String],
        booleans: [String] = [],
        context: inout ValidationContext
    ) {
        for key in members.keys.sorted() {
            let member = members[key]!
            if strings.contains(key) {
                if member.stringValue == nil, !(key == "phoneticRepresentation" && member.objectValue != nil) {
                    context.error("\(path).\(key)", "expected a string, found \(member.kindName)")
                }
            } else if booleans.contains(key) {
                if member.boolValue == nil { context.error("\(path).\(key)", "expected a boolean, found \(member.kindName)") }
            } else {
                context.warning("\(path).\(key)", "unknown key, kept as is")
            }
        }
    }
}
